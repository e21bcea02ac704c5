import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "sqlite/schema.prisma",
  migrations: { path: "sqlite/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "file:../data/calendar.db" },
});
