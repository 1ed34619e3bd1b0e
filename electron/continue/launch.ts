/** The thin spawn for "Continue in pi": the terminal is started detached (it outlives Canopy). */
import { spawn } from 'node:child_process';
import type { LaunchPlan } from './rules';

/** Starts the plan's process; settles once it started (or failed to: a missing terminal is an error). */
export function launch(plan: LaunchPlan, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(plan.command, plan.args, { cwd: plan.cwd, env, detached: true, stdio: 'ignore' });
    child.once('error', (err) => reject(new Error(`could not start ${plan.command}: ${err.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
