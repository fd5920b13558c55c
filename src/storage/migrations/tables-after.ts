import type {
  AddColumn,
  Column,
  CreateIndex,
  CreateTable,
  DropTable,
  EngineSql,
  MigrationDefinition,
  Step,
} from './vocabulary.js';

/*
 * What the migrations leave behind, twice over the same three rules — a created table is there
 * with its columns, an added column joins its table, a dropped table is gone — once as a type
 * (schema.ts derives the Kysely tables from it) and once as a value (the tests compare it with
 * each engine's catalogue). Steps of engine SQL change no column.
 */

type AfterStep<Before, S> =
  S extends CreateTable<infer Name, infer C>
    ? Before & { readonly [K in Name]: C }
    : S extends AddColumn<infer Table, infer Name, infer C>
      ? {
          readonly [K in keyof Before]: K extends Table
            ? Before[K] & { readonly [P in Name]: C }
            : Before[K];
        }
      : S extends DropTable<infer Name>
        ? Omit<Before, Name>
        : S extends CreateIndex | EngineSql
          ? Before
          : never; // a kind of step this fold does not know: no table type at all

type AfterSteps<Before, Steps> = Steps extends readonly [infer First, ...infer Rest]
  ? AfterSteps<AfterStep<Before, First>, Rest>
  : Before;

type AfterMigrations<Before, M> = M extends readonly [
  infer First extends MigrationDefinition,
  ...infer Rest,
]
  ? AfterMigrations<AfterSteps<Before, First['steps']>, Rest>
  : Before;

/** The intersections the steps pile up, as one plain object type per table. */
type Flat<Tables> = {
  readonly [T in keyof Tables]: { readonly [C in keyof Tables[T]]: Tables[T][C] };
};

/** Each table the migrations leave, by name, with its columns by name. */
export type TablesAfter<M extends readonly MigrationDefinition[]> = Flat<
  AfterMigrations<object, M>
>;

export interface TableShape {
  readonly columns: Readonly<Record<string, Column>>;
  /** The key's columns in order, whether one column's or the table's. */
  readonly primaryKey: readonly string[];
}

/** The tables `steps` leave, in the order the steps take, as values. */
export function tablesAfter(steps: readonly Step[]): Readonly<Record<string, TableShape>> {
  const tables = new Map<string, { columns: Record<string, Column>; key: readonly string[] }>();
  const table = (name: string) => {
    const found = tables.get(name);
    if (!found) throw new Error(`a migration changes table ${name}, which is not there`);
    return found;
  };
  for (const step of steps) {
    switch (step.step) {
      case 'create table':
        tables.set(step.name, { columns: { ...step.columns }, key: step.primaryKey ?? [] });
        break;
      case 'add column':
        table(step.table).columns[step.name] = step.column;
        break;
      case 'drop table':
        table(step.name);
        tables.delete(step.name);
        break;
      case 'create index':
      case 'engine sql':
        break;
      default: {
        const unknown: never = step;
        throw new Error(`no rule for the step ${JSON.stringify(unknown)}`);
      }
    }
  }
  return Object.fromEntries(
    [...tables].map(([name, { columns, key }]) => [
      name,
      {
        columns,
        primaryKey:
          key.length > 0
            ? key
            : Object.keys(columns).filter((column) => columns[column]!.primaryKey),
      },
    ]),
  );
}
