import { SQL_WIZARD_STEPS } from '@agentloom/contracts';
import { COMMON_STEPS } from './steps/common-steps';
import { FrameworkStep } from './steps/framework-step';
import { stepTable, WizardShell } from './wizard-shell';

const SQL_STEPS = stepTable(SQL_WIZARD_STEPS, { ...COMMON_STEPS, framework: FrameworkStep });

/**
 * The SQL wizard (docs/product.md#the-wizards): the LLM step saves provider, key and model, then
 * advances.
 */
export function SqlWizard() {
  return (
    <WizardShell
      type="sql"
      title="Calculate answers from tables"
      description="SQL Agent: an analyst that runs one query over your whole table for each question, so counts and totals are exact."
      steps={SQL_STEPS}
    />
  );
}
