import type { TSqlFramework, TUiFramework } from '@agentloom/contracts';

/** Copy of the wizards that docs/product.md does not fix word for word but is shown to users. */

export type PromptTemplate = { title: string; prompt: string };

/** RAG step 7: four quick prompts. */
export const RAG_PROMPT_TEMPLATES: readonly PromptTemplate[] = [
  {
    title: 'Helpful assistant',
    prompt:
      'You are a helpful assistant. Answer questions using only the provided documents. If the answer is not in them, say that you do not know instead of guessing.',
  },
  {
    title: 'Customer support',
    prompt:
      'You are a friendly customer support agent. Use the knowledge base to resolve the customer’s question in clear, short steps, and suggest contacting a human when the documents do not cover it.',
  },
  {
    title: 'Research analyst',
    prompt:
      'You are a research analyst. Summarise what the documents say about the question, compare differing points of view, and cite the passages you rely on.',
  },
  {
    title: 'Technical expert',
    prompt:
      'You are a technical expert. Give precise, well-structured answers grounded in the documentation, include examples where useful, and point out assumptions and limitations.',
  },
];

/** SQL step 5: four SQL-oriented quick prompts. */
export const SQL_PROMPT_TEMPLATES: readonly PromptTemplate[] = [
  {
    title: 'Data analyst',
    prompt:
      'You are a data analyst. Translate each question into a correct SQL query over the available table, run it, and explain the result in plain language.',
  },
  {
    title: 'Business intelligence',
    prompt:
      'You are a business intelligence assistant. Answer with the key figures first, then the trend or comparison behind them; use aggregations and group by time periods where it helps.',
  },
  {
    title: 'Report generator',
    prompt:
      'You generate concise reports from the data. Produce a short summary, a table of the relevant rows or totals, and one recommendation based on the numbers.',
  },
  {
    title: 'SQL tutor',
    prompt:
      'You are a patient SQL tutor. Show the query you used, explain each clause step by step, and suggest how the user could change it to answer a follow-up question.',
  },
];

export const UI_FRAMEWORK_CARDS: Record<
  TUiFramework,
  { title: string; description: string; features: readonly string[] }
> = {
  gradio: {
    title: 'Gradio',
    description:
      'A clean chat interface that starts in seconds — ideal for demos, quick experiments and sharing with others.',
    features: ['Chat interface', 'Quick setup', 'Shareable link', 'Lightweight'],
  },
  streamlit: {
    title: 'Streamlit',
    description:
      'A full data app with a sidebar, rich layouts and charts — ideal for dashboards and internal tools.',
    features: ['Data apps', 'Sidebar controls', 'Charts & tables', 'Custom layouts'],
  },
};

export const SQL_FRAMEWORK_CARDS: Record<TSqlFramework, { title: string; description: string }> = {
  pandasai: {
    title: 'PandasAI',
    description: 'Conversational analysis of a CSV or Excel file with pandas dataframes.',
  },
  vannaai_file: {
    title: 'Vanna AI (file)',
    description: 'Text-to-SQL with Vanna, trained on the columns of your CSV or Excel file.',
  },
  vannaai_db: {
    title: 'Vanna AI (database)',
    description:
      'Text-to-SQL with Vanna, trained on the schema of your MySQL, Postgres or SQLite table.',
  },
  sql_query_file: {
    title: 'SQL Query (file)',
    description: 'Generates and runs read-only SQL over your CSV or Excel file.',
  },
  sql_query_db: {
    title: 'SQL Query (database)',
    description: 'Generates and runs read-only SQL against your database table.',
  },
};
