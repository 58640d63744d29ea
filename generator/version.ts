/** The generator's version, written into every generated file's banner. */
import packageJson from "../package.json" with { type: "json" };

export const generatorVersion: string = packageJson.version;
