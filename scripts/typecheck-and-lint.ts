// `tsc -b` and `eslint .` in one process, on one set of TypeScript programs. Both built the whole
// program of every runtime's project, and type-checked it: tsc to report errors, typescript-eslint's
// project service again (from the sources, in programs of its own) for its type-aware rules. Here
// the solution builder's programs, whose checkers have already computed the types, are handed to
// ESLint (`parserOptions.programs`), so each file is parsed and checked once.
// A project the builder finds up to date (an incremental run) gets a program made from its tsconfig,
// which reads its references' declarations as the builder's would.
import ts from 'typescript';
import { ESLint } from 'eslint';

const root = process.cwd();
const pretty = ts.sys.writeOutputIsTTY?.() ?? false;
const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => ts.sys.newLine,
};
const reportDiagnostic = (diagnostic: ts.Diagnostic) =>
  ts.sys.write(pretty ? ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost) : ts.formatDiagnostic(diagnostic, formatHost));
let typeErrors = 0;
const host = ts.createSolutionBuilderHost(ts.sys, undefined, (diagnostic) => {
  if (diagnostic.category === ts.DiagnosticCategory.Error) typeErrors += 1;
  reportDiagnostic(diagnostic);
});
const builder = ts.createSolutionBuilder(host, ['tsconfig.json'], {});
const programs = new Map<string, ts.Program>();
for (let project = builder.getNextInvalidatedProject(); project; project = builder.getNextInvalidatedProject()) {
  if (project.kind === ts.InvalidatedProjectKind.Build) {
    const program = project.getProgram();
    if (program) programs.set(project.project, program);
  }
  project.done();
}
const built = new Set([...programs.keys()].map((configPath) => ts.sys.resolvePath(configPath)));
const references = (ts.readConfigFile('tsconfig.json', ts.sys.readFile).config as { references: { path: string }[] }).references;
for (const { path } of references) {
  const configPath = ts.sys.resolvePath(path);
  if (built.has(configPath)) continue;
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: reportDiagnostic })!;
  programs.set(
    configPath,
    ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences }),
  );
}

const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    files: ['**/*.{ts,tsx,mts,cts}'],
    languageOptions: { parserOptions: { projectService: false, programs: [...programs.values()] } },
  },
});
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
const output = await formatter.format(results);
if (output) console.log(output);
const lintErrors = results.reduce((sum, r) => sum + r.errorCount + r.warningCount, 0);
if (typeErrors > 0) console.error(`tsc: ${typeErrors} error(s)`);
process.exitCode = typeErrors > 0 || lintErrors > 0 ? 1 : 0;
