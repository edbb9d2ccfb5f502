/**
 * Reads until `done` holds or `withinMs` pass (20 s), then returns the last reading, for the
 * test's assertions to judge: a timeout shows as a failed expectation with the value seen.
 */
export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, withinMs = 20_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
