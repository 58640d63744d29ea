/** Mistakes in a schema folder, each located by file and JSON pointer so a person can fix it. */

export interface SchemaProblem {
  /** Relative path inside the folder (or the folder itself). */
  readonly file: string;
  readonly pointer: string;
  readonly problem: string;
}

/** Every problem found in a schema folder, each with its file and JSON pointer. */
export class SchemaFolderError extends Error {
  /** Every problem found, in the order found; `file`, `pointer` and `problem` are the first one's. */
  readonly problems: readonly SchemaProblem[];
  readonly file: string;
  readonly pointer: string;
  readonly problem: string;

  constructor(file: string, pointer: string, problem: string, more: readonly SchemaProblem[] = []) {
    const problems = [{ file, pointer, problem }, ...more];
    super(problems.map((each) => `${each.file}: ${each.pointer}: ${each.problem}`).join("\n"));
    this.name = "SchemaFolderError";
    this.problems = problems;
    this.file = file;
    this.pointer = pointer;
    this.problem = problem;
  }
}

/**
 * Gathers the problems of a schema folder so one run reports them all: checks add what they
 * find and go on, and a stage whose later checks need a sound folder throws what it gathered.
 */
export class SchemaProblems {
  readonly #found: SchemaProblem[] = [];
  readonly #seen = new Set<string>();

  add(file: string, pointer: string, problem: string): void {
    this.#record({ file, pointer, problem });
  }

  /** Runs `check`; the problems of a SchemaFolderError it throws are gathered and undefined returned. */
  attempt<T>(check: () => T): T | undefined {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof SchemaFolderError)) throw error;
      for (const problem of error.problems) this.#record(problem);
      return undefined;
    }
  }

  /** Two checks may reach one mistake by different paths: it is reported once. */
  #record(problem: SchemaProblem): void {
    const key = JSON.stringify([problem.file, problem.pointer, problem.problem]);
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#found.push(problem);
  }

  /** Throws every problem gathered so far as one SchemaFolderError. */
  throwIfAny(): void {
    const [first, ...more] = this.#found;
    if (first) throw new SchemaFolderError(first.file, first.pointer, first.problem, more);
  }
}
