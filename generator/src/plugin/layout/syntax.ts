/**
 * TypeScript constructs as the documents prettier (babel-ts, trailingComma "all", quoteProps
 * "as-needed") makes for them, so print-doc.ts breaks them where prettier would: import lists,
 * object and array literals, object types, unions, parameter and argument lists, and the
 * quoting of strings and keys. Only what generated code uses; anything prettier lays out by
 * rules not copied here is marked `unvouched` (its file then goes to prettier).
 */
import { align, group, ifBreak, indent, join, line, softline, unvouched, type Doc } from "./doc.js";

const asciiIdentifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A string literal in prettier's quotes: double, unless the text holds more double quotes than single ones. */
export function stringLiteral(value: string): string {
  const json = JSON.stringify(value);
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  if (doubles <= singles) return json;
  return `'${json.slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
}

/** A number as prettier prints it: JSON's form without the `+` of an exponent (`1e21`). */
export function numberLiteral(value: number): string {
  return JSON.stringify(value).replace("e+", "e");
}

/**
 * A property name: bare when it is an identifier, quoted otherwise (numbers stay quoted in
 * TypeScript). Prettier also unquotes non-ASCII identifiers by ES5's Unicode tables, which are
 * not copied here: such a name leaves the file to prettier.
 */
export function propertyKey(key: string): Doc {
  if (asciiIdentifier.test(key)) return key;
  const ascii = /^[\x00-\x7f]*$/.test(key);
  return ascii ? stringLiteral(key) : [stringLiteral(key), unvouched(`the property name ${JSON.stringify(key)}`)];
}

/**
 * `[key, value]` pairs as an object literal, expanded one member a line whatever its width:
 * prettier keeps an object expanded when its source is, and generated data reads best so.
 */
export function expandedObject(members: readonly (readonly [key: Doc, value: Doc])[]): Doc {
  if (members.length === 0) return "{}";
  // A string literal moves to the next line when it does not fit after its key; other values stay beside it.
  const member = ([key, value]: readonly [Doc, Doc]) =>
    typeof value === "string" && /^["']/.test(value) ? [key, ":", group(indent([line, value]))] : [key, ": ", value];
  return bracketed("{", members.map(member), ",", "}", { broken: true, padded: true });
}

export interface ArrayLayout {
  /** Prettier breaks a list of two or more arrays (or objects) that each hold two or more items. */
  readonly broken?: boolean;
  /** A list of two or more numbers, which prettier fills line by line when it breaks. */
  readonly numbers?: boolean;
}

export function arrayLiteral(items: readonly Doc[], layout: ArrayLayout = {}): Doc {
  if (items.length === 0) return "[]";
  return bracketed("[", items, ",", "]", { broken: layout.broken, unmodelledBreak: layout.numbers });
}

/** An object type: `{ a: A; b: B }` when it fits, else one member a line. */
export function objectType(members: readonly (readonly [key: string, type: Doc])[]): Doc {
  if (members.length === 0) return "{}";
  return bracketed(
    "{",
    members.map(([key, type]) => [propertyKey(key), ": ", type]),
    ";",
    "}",
    { padded: true },
  );
}

/**
 * A union, as the type of an object type's member: `A | B` beside the key when it fits, else on
 * the next line, else one `| member` a line. One member is itself; none is `never`.
 */
export function memberUnion(members: readonly Doc[]): Doc {
  return members.length < 2 ? (members[0] ?? "never") : group(indent([softline, union(members)]));
}

/** `left = union;`: the union beside `=` when it fits, else on the next line, else one `| member` a line. */
export function typeAlias(left: Doc, members: readonly Doc[]): Doc {
  const right = members.length < 2 ? (members[0] ?? "never") : union(members);
  return [group([left, " =", group(indent([line, right]))]), ";"];
}

function union(members: readonly Doc[]): Doc {
  return group([
    ifBreak("| "),
    join(
      [line, "| "],
      members.map((member) => align(2, member)),
    ),
  ]);
}

/** `check ? whenTrue : whenFalse`, `check` being `A extends B`. */
export interface Conditional<WhenTrue = Doc> {
  readonly check: Doc;
  readonly whenTrue: WhenTrue;
  readonly whenFalse: Doc;
}

/**
 * A conditional type: on one line when it fits, else `? whenTrue` and `: whenFalse` on lines of
 * their own. A conditional `whenTrue` shares the layout: in parentheses on one line, on its own
 * `?` and `:` lines (no parentheses) when broken.
 */
export function conditionalType({ check, whenTrue, whenFalse }: Conditional<Doc | Conditional>): Doc {
  const branch = isConditional(whenTrue)
    ? [
        ifBreak("", "("),
        align(2, [
          whenTrue.check,
          align(0, [line, "? ", align(2, whenTrue.whenTrue), line, ": ", align(2, whenTrue.whenFalse)]),
        ]),
        ifBreak("", ")"),
      ]
    : align(2, whenTrue);
  return group([check, indent([line, "? ", branch, line, ": ", align(2, whenFalse)])]);
}

function isConditional(value: Doc | Conditional): value is Conditional {
  return typeof value === "object" && "check" in value;
}

/** `name(a, b): Return`: the parameters one a line (with a trailing comma) when the signature does not fit. */
export function signature(name: Doc, parameters: readonly Doc[], returnType: Doc): Doc {
  return [
    name,
    group(["(", indent([softline, join([",", line], parameters)]), ifBreak(","), softline, "): ", returnType]),
  ];
}

/**
 * `name<A, B>` with two or more type arguments: one a line, without a trailing comma, when they
 * do not fit. (Prettier never breaks a single argument that is a plain name: `Promise<Result>`.)
 */
export function typeArguments(name: string, args: readonly Doc[]): Doc {
  return [name, group(["<", indent([softline, join([",", line], args)]), softline, ">"])];
}

/** `(a, b)` of a call whose arguments are neither functions nor a last object to hug: one a line when it does not fit. */
export function callArguments(args: readonly Doc[]): Doc {
  if (args.length === 0) return "()";
  return bracketed("(", args, ",", ")", {});
}

/** `import { a, b } from "m";`, one name a line when it does not fit; a single name never breaks. */
export function importDeclaration(keyword: string, names: readonly string[], from: string): Doc {
  const list = names.length === 1 ? `{ ${names[0]} }` : bracketed("{", names, ",", "}", { padded: true });
  return [keyword, " ", list, " from ", stringLiteral(from), ";"];
}

/** `open items close`, the items one a line (the last with `separator` too) when broken; `padded`: `{ a }` flat. */
function bracketed(
  open: string,
  items: readonly Doc[],
  separator: string,
  close: string,
  options: { padded?: boolean; broken?: boolean | undefined; unmodelledBreak?: boolean | undefined },
): Doc {
  const edge = options.padded === true ? line : softline;
  return group([open, indent([edge, join([separator, line], items)]), ifBreak(separator), edge, close], {
    broken: options.broken === true,
    unmodelledBreak: options.unmodelledBreak === true,
  });
}
