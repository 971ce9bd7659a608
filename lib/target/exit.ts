/** How a target process ended while the harness still used it. */
export interface TargetExit {
  command: string;
  /** Its exit code, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines it wrote to stderr (at most 20). */
  stderr: string[];
}

/**
 * `exit code 3` or `signal SIGSEGV`, as every report says it. In a module of its own, beside the type,
 * so reports read it without loading the module that spawns processes.
 */
export function describeExit(exit: Pick<TargetExit, 'code' | 'signal'>): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}
