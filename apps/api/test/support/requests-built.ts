/**
 * How many WHATWG `Request`s `run` builds, counted in code that looks `Request` up at call time (tRPC's adapters);
 * the native class is back when it returns.
 */
export async function requestsBuiltBy(run: () => Promise<unknown>): Promise<number> {
  const native = globalThis.Request;
  let built = 0;
  globalThis.Request = class extends native {
    constructor(...args: ConstructorParameters<typeof Request>) {
      super(...args);
      built += 1;
    }
  };
  try {
    await run();
  } finally {
    globalThis.Request = native;
  }
  return built;
}
