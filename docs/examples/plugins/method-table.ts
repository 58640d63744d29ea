/**
 * An rcp-gen plugin: `methods.md`, a table of the protocol's methods (capability, streaming,
 * spec section), and `method-names.ts`, their wire names as a typed constant. Run it with
 * `npx rcp-gen --plugin dist/docs/examples/plugins/method-table.js`.
 */
import { definePlugin } from "rcp-gen";

export default definePlugin({
  name: "method-table",
  generate({ model, newFile }) {
    const table = newFile("methods.md");
    table.print(`# ${model.title} methods`);
    table.print("");
    table.print("| method | capability | streaming | spec |");
    table.print("| --- | --- | --- | --- |");
    for (const method of model.methods)
      table.print(
        `| \`${method.method}\` | ${method.capability ?? "none"} | ${method.streaming ? "yes" : "no"} | ${method.spec ?? ""} |`,
      );

    const names = newFile("method-names.ts");
    names.print(names.jsDoc(`Every wire name of ${model.title}, sorted.`, { from: "methods/" }));
    names.block(
      "export const methodNames = [",
      () => model.methods.forEach((method) => names.print(`${JSON.stringify(method.method)},`)),
      "] as const;",
    );
    return [table, names];
  },
});
