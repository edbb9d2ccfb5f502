import { type Code, ConnectError } from "@connectrpc/connect";

/** The ConnectError a call that must be refused fails with; a call that succeeds fails the test. */
export function refusal(call: Promise<unknown>): Promise<ConnectError> {
  return call.then(
    () => {
      throw new Error("expected the call to be refused");
    },
    (e: unknown) => ConnectError.from(e),
  );
}

/** The code of the refusal, for tests that only compare codes. */
export async function refusalCode(call: Promise<unknown>): Promise<Code> {
  return (await refusal(call)).code;
}
