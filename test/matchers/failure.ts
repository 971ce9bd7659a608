/** The message of a failed expectation; fails the test if the expectation passed. */
export function failure(run: () => void): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the expectation passed');
}

/** The same for an async matcher. */
export async function asyncFailure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the expectation passed');
}
