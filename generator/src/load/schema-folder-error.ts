/** A mistake in a schema folder, located by file and JSON pointer so a person can fix it. */
export class SchemaFolderError extends Error {
  readonly file: string;
  readonly pointer: string;
  readonly problem: string;

  constructor(file: string, pointer: string, problem: string) {
    super(`${file}: ${pointer}: ${problem}`);
    this.name = "SchemaFolderError";
    this.file = file;
    this.pointer = pointer;
    this.problem = problem;
  }
}
