import {
  frameworkFitsSource,
  SOURCE_TYPE_LABELS,
  SQL_FRAMEWORK_NEEDS,
  type TSqlFramework,
  type TStepAnswer,
  type TUiFramework,
  type ZSqlFrameworkSaved,
  type ZSystemPromptSaved,
  type ZUiSaved,
} from '@agentloom/contracts';
import { Injectable, UnprocessableEntityException } from '@nestjs/common';
import { WizardCall, WizardSessions } from './wizard-sessions';

/** The wizards' last steps before Build: the system prompt, the SQL framework, the UI. */
@Injectable()
export class FinishStepsService {
  constructor(private readonly sessions: WizardSessions) {}

  async setSystemPrompt(
    call: WizardCall,
    prompt: string,
  ): Promise<TStepAnswer<typeof ZSystemPromptSaved>> {
    const session = await this.sessions.open(call);
    session.config.system_prompt = prompt;
    await this.sessions.save(session);
    return this.sessions.answer(session.pipeline, 'System prompt saved.', {
      prompt,
      characters: prompt.length,
    });
  }

  /**
   * The framework must be able to read the source on record
   * (docs/product.md#the-wizard-sql-engine).
   */
  async setFramework(
    call: WizardCall<'sql'>,
    framework: TSqlFramework,
  ): Promise<TStepAnswer<typeof ZSqlFrameworkSaved>> {
    const session = await this.sessions.open(call);
    const { config } = session;
    if (config.source_type && !frameworkFitsSource(framework, config.source_type)) {
      throw new UnprocessableEntityException(
        `The ${framework} framework cannot serve a ${SOURCE_TYPE_LABELS[config.source_type]} source; it needs ${SQL_FRAMEWORK_NEEDS[framework].needs}.`,
      );
    }
    config.framework = framework;
    await this.sessions.save(session);
    return this.sessions.answer(session.pipeline, 'Framework saved.', { framework });
  }

  async setUi(call: WizardCall, ui: TUiFramework): Promise<TStepAnswer<typeof ZUiSaved>> {
    const session = await this.sessions.open(call);
    session.config.ui = ui;
    await this.sessions.save(session);
    return this.sessions.answer(session.pipeline, 'UI saved.', { ui });
  }
}
