import { BUILD_AGENT_JOB, BUILD_STAGES } from '@agentloom/contracts';
import { assertEverythingHandled } from './build.processor';
import type { BuildStep, BuildSteps } from './build-steps';

const step: BuildStep = async () => {};
const everyStep = Object.fromEntries(
  Object.values(BUILD_STAGES)
    .flat()
    .map((key) => [key, step]),
);
const steps = (table: Record<string, BuildStep>) => ({ steps: table }) as unknown as BuildSteps;

describe('the worker startup check', () => {
  it('passes when every job and every stage has a handler', () => {
    expect(() =>
      assertEverythingHandled({ [BUILD_AGENT_JOB]: () => undefined }, steps(everyStep)),
    ).not.toThrow();
  });

  it('refuses to start without a step for a stage, naming it', () => {
    const { profile_schema: _dropped, ...withoutProfiling } = everyStep;
    expect(() =>
      assertEverythingHandled({ [BUILD_AGENT_JOB]: () => undefined }, steps(withoutProfiling)),
    ).toThrow('sql stage "profile_schema"');
  });

  it('refuses to start without a handler for a job of the queue', () => {
    expect(() => assertEverythingHandled({}, steps(everyStep))).toThrow(`job "${BUILD_AGENT_JOB}"`);
  });
});
