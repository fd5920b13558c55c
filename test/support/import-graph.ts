import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One module's imports: project files (relative to the root) and package names. */
export interface ModuleImports {
  readonly files: ReadonlySet<string>;
  readonly packages: ReadonlySet<string>;
}

/** Every module under the given folders, by path relative to `root`, with what it imports. */
export type ImportGraph = ReadonlyMap<string, ModuleImports>;

/**
 * Reads the import graph of the TypeScript under `folders` as the compiler resolves it, with
 * the compiler options of the nearest tsconfig.json (so `.js` specifiers reach their `.ts`
 * files and `@contract/*` its folder). Every way of naming a module counts: imports and
 * re-exports, type-only ones too (`import type`, `import('…')` in a type), and dynamic
 * `import()`: a cycle of types still ties the modules together.
 */
export function readImportGraph(root: string, folders: readonly string[]): ImportGraph {
  const graph = new Map<string, ModuleImports>();
  const optionsByConfig = new Map<string, ts.CompilerOptions>();
  for (const folder of folders) {
    for (const file of typeScriptFiles(join(root, folder))) {
      const options = compilerOptionsFor(file, optionsByConfig);
      const files = new Set<string>();
      const packages = new Set<string>();
      for (const specifier of moduleSpecifiers(file)) {
        const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
        if (resolved && !resolved.isExternalLibraryImport && !specifier.startsWith('node:')) {
          files.add(relative(root, resolved.resolvedFileName));
        } else packages.add(packageName(specifier));
      }
      graph.set(relative(root, file), { files, packages });
    }
  }
  return graph;
}

/**
 * The graph's cycles, each as the modules of one strongly connected component (Tarjan), sorted;
 * a module importing itself is a cycle of one.
 */
export function findCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, index.size);
    lowLink.set(module, index.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const next of graph.get(module)?.files ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        lowLink.set(module, Math.min(lowLink.get(module)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(module, Math.min(lowLink.get(module)!, index.get(next)!));
      }
    }
    if (lowLink.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || graph.get(module)!.files.has(module)) {
      cycles.push(component.sort());
    }
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return cycles;
}

/** The modules `from` reaches through its imports, itself included. */
export function reachableFrom(graph: ImportGraph, from: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const todo = [...from];
  for (let module = todo.pop(); module !== undefined; module = todo.pop()) {
    if (seen.has(module)) continue;
    seen.add(module);
    todo.push(...(graph.get(module)?.files ?? []));
  }
  return seen;
}

function typeScriptFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...typeScriptFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

function compilerOptionsFor(
  file: string,
  cache: Map<string, ts.CompilerOptions>,
): ts.CompilerOptions {
  const configPath = ts.findConfigFile(dirname(resolve(file)), ts.sys.fileExists);
  if (!configPath) throw new Error(`No tsconfig.json above ${file}`);
  let options = cache.get(configPath);
  if (!options) {
    const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
    if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
    options = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configPath)).options;
    cache.set(configPath, options);
  }
  return options;
}

function moduleSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      specifiers.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      specifiers.push(node.moduleReference.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/** `node:fs/promises` → `node:fs`, `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}
