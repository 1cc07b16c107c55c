import { Link, useParams } from 'react-router-dom';
import { Alert, buttonClasses, PageContainer } from '../../components/ui';
import { RagWizard } from './rag-wizard';
import { SqlWizard } from './sql-wizard';

/**
 * /pipeline/{type}: rag → the RAG wizard, sql → the SQL wizard (docs/product.md#routes-and-access).
 */
export function WizardPage() {
  const { type } = useParams();
  // Keyed by type: switching between the wizards starts the other one fresh.
  if (type === 'rag') return <RagWizard key="rag" />;
  if (type === 'sql') return <SqlWizard key="sql" />;
  return (
    <PageContainer size="md" className="space-y-4">
      <h1 className="sr-only">Agent wizard</h1>
      <Alert>Invalid pipeline type.</Alert>
      {/* A dead end otherwise: offer the two wizards that exist. */}
      <Link to="/dashboard/create-agent" className={buttonClasses('outline')}>
        Choose an agent type
      </Link>
    </PageContainer>
  );
}
