import { describe, expect, it } from 'vitest';
import { nextStep, previousStep, stepPercent } from './step-navigation';

describe('wizard step navigation', () => {
  it('moves forward one step at a time and never beyond the last step', () => {
    expect(nextStep(1, 9)).toBe(2);
    expect(nextStep(8, 9)).toBe(9);
    expect(nextStep(9, 9)).toBe(9);
    expect(nextStep(8, 8)).toBe(8);
  });

  it('moves back one step and never below step 1', () => {
    expect(previousStep(5)).toBe(4);
    expect(previousStep(2)).toBe(1);
    expect(previousStep(1)).toBe(1);
  });

  it('fills the progress bar by the current step over the step count', () => {
    expect(stepPercent(1, 9)).toBe(11);
    expect(stepPercent(9, 9)).toBe(100);
    expect(stepPercent(4, 8)).toBe(50);
  });
});
