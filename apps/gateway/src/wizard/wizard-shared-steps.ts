import { WIZARD_ROUTES, type TAgentType } from '@agentloom/contracts';
import { Body, UploadedFile } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import {
  SessionOnlyDto,
  SystemPromptDto,
  SystemPromptSavedDto,
  UiDto,
  UiSavedDto,
} from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { FinishStepsService } from './finish-steps.service';
import { LlmStepService } from './llm-step.service';
import { SourceStepService } from './source-step.service';
import { incomingFile, WizardStep, WizardUpload } from './wizard-docs';
import { WizardCall } from './wizard-sessions';

/** How /docs names the steps both wizards have (the step numbers differ); paths: WIZARD_ROUTES. */
export interface SharedStepRoutes<Kind extends TAgentType> {
  kind: Kind;
  upload: { summary: string; accepted: string };
  systemPromptSummary: string;
  uiSummary: string;
}

/**
 * The calls both wizards answer with the same body and rule: the source file upload, the system
 * prompt and the UI. Each wizard's controller extends the class made here for its own routes and
 * adds its own steps; `call` ties every step to the caller and the wizard's kind of agent.
 */
export function WizardSharedSteps<Kind extends TAgentType>(routes: SharedStepRoutes<Kind>) {
  abstract class SharedSteps {
    constructor(
      protected readonly sources: SourceStepService,
      protected readonly llm: LlmStepService,
      protected readonly finish: FinishStepsService,
    ) {}

    protected call(user: AuthenticatedUser, sessionId: string): WizardCall<Kind> {
      return { userId: user.id, sessionId, agentType: routes.kind };
    }

    @WizardUpload(WIZARD_ROUTES[routes.kind].upload, routes.upload.summary, routes.upload.accepted)
    upload(
      @CurrentUser() user: AuthenticatedUser,
      @Body() body: SessionOnlyDto,
      @UploadedFile() file?: Express.Multer.File,
    ) {
      return this.sources.saveUpload(this.call(user, body.session_id), incomingFile(file));
    }

    @WizardStep(
      WIZARD_ROUTES[routes.kind].systemPrompt,
      routes.systemPromptSummary,
      SystemPromptSavedDto,
    )
    systemPrompt(@CurrentUser() user: AuthenticatedUser, @Body() body: SystemPromptDto) {
      return this.finish.setSystemPrompt(this.call(user, body.session_id), body.prompt);
    }

    @WizardStep(WIZARD_ROUTES[routes.kind].ui, routes.uiSummary, UiSavedDto)
    ui(@CurrentUser() user: AuthenticatedUser, @Body() body: UiDto) {
      return this.finish.setUi(this.call(user, body.session_id), body.ui);
    }
  }
  return SharedSteps;
}
