/**
 * The lint gate's cycle check (`npm run lint` ends with madge over the project, configured by `.madgerc`): it must
 * see a cycle made of type-only imports, which ESLint's `import/no-cycle` lets through.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import madge from "madge";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "import-cycles-"));
  await writeFile(
    path.join(dir, "answer.ts"),
    'import type { Contract } from "./contract";\nexport type Answer = { contract?: Contract };\n',
  );
  await writeFile(
    path.join(dir, "contract.ts"),
    'import type { Answer } from "./answer";\nexport const ACCEPTED: Answer = {};\nexport type Contract = "v1";\n',
  );
  await writeFile(path.join(dir, "leaf.ts"), 'import { ACCEPTED } from "./contract";\nexport const leaf = ACCEPTED;\n');
});

afterAll(() => rm(dir, { recursive: true, force: true }));

test("the lint gate runs madge with the project's .madgerc", async () => {
  const { scripts } = JSON.parse(await readFile("package.json", "utf8")) as { scripts: Record<string, string> };
  expect(scripts.lint).toMatch(/madge --circular /);
});

test("finds a cycle of type-only imports, and names its two modules", async () => {
  const config = JSON.parse(await readFile(".madgerc", "utf8")) as madge.MadgeConfig;
  const result = await madge(dir, { ...config, tsConfig: undefined });
  expect(result.circular()).toEqual([["answer.ts", "contract.ts"]]);
});
