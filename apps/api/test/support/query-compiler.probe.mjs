// Preloaded into a server process by a test (NODE_OPTIONS=--import=…): says on stderr when Prisma's query compiler,
// a WebAssembly module, is compiled, which the client does at its first query.
const { Module } = WebAssembly;
WebAssembly.Module = new Proxy(Module, {
  construct(target, args) {
    const module = Reflect.construct(target, args);
    if (Module.exports(module).some(({ name }) => name === "querycompiler_new")) {
      process.stderr.write("query compiler loaded\n");
    }
    return module;
  },
});
