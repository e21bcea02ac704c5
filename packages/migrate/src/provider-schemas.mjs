// prisma/schema.prisma holds the models once; each provider gets a copy with its own generator and datasource
// header in prisma/<provider>/schema.prisma (the provider is fixed per schema file in Prisma).
import fs from "node:fs";
import path from "node:path";

/** `name` is the folder under prisma/ and the generated client's folder; `datasource` is Prisma's provider. */
export const PROVIDERS = [
  { name: "sqlite", datasource: "sqlite" },
  { name: "postgres", datasource: "postgresql" },
];

export function renderProviderSchema(provider, models) {
  const header = [
    "// Generated from prisma/schema.prisma by `pnpm db:generate`: do not edit.",
    "generator client {",
    '  provider               = "prisma-client"',
    `  output                 = "../../packages/core/src/generated/${provider.name}"`,
    '  moduleFormat           = "esm"',
    '  importFileExtension    = "ts"',
    // The query compiler's small build: its WebAssembly memory at the first query is ~45 MB below the fast one's.
    '  compilerBuild          = "small"',
    "}",
    "",
    "datasource db {",
    `  provider = "${provider.datasource}"`,
    "}",
  ].join("\n");
  return `${header}\n\n${models}`;
}

export const modelsFile = (prismaDir) => path.join(prismaDir, "schema.prisma");
export const providerSchemaFile = (prismaDir, provider) => path.join(prismaDir, provider.name, "schema.prisma");
export const providerMigrationsDir = (prismaDir, provider) => path.join(prismaDir, provider.name, "migrations");

function expectedSchemas(prismaDir) {
  const models = fs.readFileSync(modelsFile(prismaDir), "utf8");
  return PROVIDERS.map((provider) => ({
    provider,
    file: providerSchemaFile(prismaDir, provider),
    content: renderProviderSchema(provider, models),
  }));
}

/** Writes the provider schemas that differ from what prisma/schema.prisma gives; returns the files written. */
export function syncProviderSchemas(prismaDir) {
  const written = [];
  for (const { file, content } of expectedSchemas(prismaDir)) {
    if (readIfExists(file) === content) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    written.push(file);
  }
  return written;
}

/** The provider schema files that are not what `syncProviderSchemas` would write. */
export function staleProviderSchemas(prismaDir) {
  return expectedSchemas(prismaDir)
    .filter(({ file, content }) => readIfExists(file) !== content)
    .map(({ file }) => file);
}

function readIfExists(file) {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
}
