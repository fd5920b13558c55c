// The one way the delivery path reaches its database: every statement is built with Kysely (its
// query builder, or its `sql` tag for what the builder cannot say), with each parameter named
// where it is used, and compiled ONCE when the store is made. A call binds the named values in
// the order the compiled text wants them and runs it on the connection of the call's transaction
// (`RunStatement`: one per engine). Compiling once is what keeps the hot path cheap: a statement
// run per recipient or per batch costs no query building, and its text never changes, so
// better-sqlite3 keeps it prepared. PostgreSQL plans each run for its values (ADR 0044).
import type { CompiledQuery } from 'kysely';

/** A named parameter: stands in a built statement where a value of type `T` is bound. */
class Param {
  constructor(readonly name: string) {}
}

/** What builds a statement: a Kysely query (or a `sql` fragment compiled with its Kysely). */
export interface Compilable<R> {
  compile(): CompiledQuery<R>;
}

/** A statement compiled once; `P` the values it takes by name, `R` a row it returns. */
export interface Statement<P, R> {
  readonly sql: string;
  /** The compiled parameters in order: a name to bind, or a constant the builder put there. */
  readonly parameters: readonly unknown[];
  /** Never present: carries `P` for the type checker. */
  readonly __params?: P;
  /** Never present: carries `R` for the type checker. */
  readonly __row?: R;
}

/**
 * Builds and compiles a statement once. `build` receives its parameters as an object whose every
 * property is a stand-in for the value bound at each run, typed as that value:
 *
 *   statement((p: { id: number }) => db.selectFrom('messages').select('parts').where('id', '=', p.id))
 */
export function statement<P extends object, R>(
  build: (p: P) => Compilable<R> | CompiledQuery<R>,
): Statement<P, R> {
  const names = new Map<string, Param>();
  const params = new Proxy(
    {},
    {
      get(_, name) {
        if (typeof name !== 'string') return undefined;
        let param = names.get(name);
        if (!param) names.set(name, (param = new Param(name)));
        return param;
      },
    },
  ) as P;
  const built = build(params);
  const compiled = 'compile' in built ? built.compile() : built;
  // A line comment would swallow the rest of the statement once its lines are joined below.
  if (compiled.sql.includes('--'))
    throw new Error(`a statement may not hold "--": ${compiled.sql}`);
  return {
    // Line breaks and their indentation, as written in `sql` templates, sent as one space: a
    // statement sent at every batch costs its bytes each time.
    sql: compiled.sql.replace(/\s*\n\s*/g, ' '),
    parameters: compiled.parameters,
  };
}

/** The values of a run of `st`, in the order its text wants them. */
export function bind<P, R>(st: Statement<P, R>, values: P): unknown[] {
  const bound = new Array<unknown>(st.parameters.length);
  for (let i = 0; i < bound.length; i++) {
    const parameter = st.parameters[i];
    bound[i] =
      parameter instanceof Param ? (values as Record<string, unknown>)[parameter.name] : parameter;
  }
  return bound;
}

/** Runs a statement with its values on the connection of the current transaction; its rows. */
export type RunStatement = <P, R>(st: Statement<P, R>, values: P) => Promise<R[]>;
