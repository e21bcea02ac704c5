import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "postgres/schema.prisma",
  migrations: { path: "postgres/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
});
