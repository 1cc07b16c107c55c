import {
  isFileSourceType,
  NO_FILE_SELECTED,
  type TAgentType,
  type TRagSourceType,
  type TSqlSourceType,
} from '@agentloom/contracts';
import { useState } from 'react';
import { STORAGE_KEYS } from '../../lib/storage';
import { useStepNavigation } from './step-navigation';
import type { DatabaseFieldsValue } from './steps';
import { invalid, useStepSaver } from './use-step-saver';
import type { WizardCall } from './wizard-api';

const NO_DATABASE: DatabaseFieldsValue = { uri: '', database: '', table: '' };

/**
 * What the RAG and SQL wizards share: step navigation, the save-then-advance calls, and the
 * draft agent of steps 1–3 (its session, name and source). Each wizard adds its own later steps
 * and passes its own calls and SPEC §8 failure texts.
 */
export function useAgentDraft<TSource extends TRagSourceType | TSqlSourceType>(
  type: TAgentType,
  totalSteps: number,
) {
  const navigation = useStepNavigation(totalSteps);
  const { next } = navigation;
  const saver = useStepSaver(type);
  const { saveStep } = saver;

  const [sessionId, setSessionId] = useState('');
  const [createdName, setCreatedName] = useState('');
  const [name, setName] = useState('');
  const [sourceType, setSourceType] = useState<TSource | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const [uploadedName, setUploadedName] = useState('');
  const [db, setDb] = useState<DatabaseFieldsValue>(NO_DATABASE);

  /** Step 1 (SPEC §4): creates the session and only then advances. */
  async function createAgent(requiredMessage: string, reportFailure: (error: unknown) => void) {
    const trimmed = name.trim();
    if (!trimmed) return invalid(requiredMessage);
    // Coming back to step 1 without renaming continues the same agent instead of a second one.
    if (sessionId && trimmed === createdName) return next();
    try {
      const created = await saver.create.mutateAsync(trimmed);
      localStorage.setItem(STORAGE_KEYS.sessionId, created.session_id);
      setSessionId(created.session_id);
      setCreatedName(trimmed);
      next();
    } catch (error) {
      reportFailure(error);
    }
  }

  /** Step 2: saves the source type and advances; resolves whether it was saved. */
  async function chooseSource(chosen: TSource, call: WizardCall, failure: string) {
    if (!(await saveStep(call, failure))) return false;
    // Another source type makes the file or connection of the previous one meaningless.
    if (chosen !== sourceType) {
      setFile(null);
      setUploadedName('');
      setDb(NO_DATABASE);
    }
    setSourceType(chosen);
    next();
    return true;
  }

  /** Step 3 for a file source: uploads the chosen file, then advances. */
  async function uploadFile(call: (sessionId: string, file: File) => WizardCall, failure: string) {
    if (!file) return invalid(NO_FILE_SELECTED);
    if (await saveStep(call(sessionId, file), failure)) {
      setUploadedName(file.name);
      next();
    }
  }

  /** Step 3 for a database source: the three fields trimmed, or null when one is empty. */
  function databaseFields(): DatabaseFieldsValue | null {
    const fields = { uri: db.uri.trim(), database: db.database.trim(), table: db.table.trim() };
    return fields.uri && fields.database && fields.table ? fields : null;
  }

  /** The build summary's source detail: the uploaded file's name, or database.table. */
  const sourceDetail = isFileSourceType(sourceType)
    ? uploadedName
    : db.database && db.table
      ? `${db.database}.${db.table}`
      : '';

  return {
    ...navigation,
    ...saver,
    sessionId,
    createdName,
    name,
    setName,
    sourceType,
    file,
    setFile,
    db,
    setDb,
    createAgent,
    chooseSource,
    uploadFile,
    databaseFields,
    sourceDetail,
  };
}
