import { useCallback, useState } from 'react';

/** SPEC §4: wizards move one step at a time and never beyond the last step… */
export function nextStep(step: number, total: number): number {
  return Math.min(step + 1, total);
}

/** …and Previous never goes below step 1. */
export function previousStep(step: number): number {
  return Math.max(step - 1, 1);
}

/** The progress bar's value: how far through the wizard the current step is. */
export function stepPercent(step: number, total: number): number {
  return Math.round((step / total) * 100);
}

export function useStepNavigation(total: number) {
  const [step, setStep] = useState(1);
  const next = useCallback(() => setStep((current) => nextStep(current, total)), [total]);
  const previous = useCallback(() => setStep((current) => previousStep(current)), []);
  return { step, total, next, previous };
}
