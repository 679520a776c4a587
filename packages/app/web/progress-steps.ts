/** An action's progress as steps: one per stage, the latest detail of a stage told again in place. */

/** What a progress step needs here (the ticket's ProgressStep has this shape). */
interface Step {
  stage: string;
  detail?: string;
}

/** How many steps of one action are kept. */
const MAX_STEPS = 20;

/** `steps` with `step`: it replaces the last step when it is the same stage (a new detail of it). */
export function appendStep<S extends Step>(steps: readonly S[], step: S): S[] {
  const last = steps[steps.length - 1];
  const kept = last?.stage === step.stage ? steps.slice(0, -1) : steps;
  return [...kept, step].slice(-MAX_STEPS);
}
