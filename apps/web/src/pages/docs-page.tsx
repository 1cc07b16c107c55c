import { BookOpen, Layers, Rocket, type LucideIcon } from 'lucide-react';
import { Card, PageContainer, PageHeader } from '../components/ui';
import { IconHeading } from '../components/icon-heading';

type DocCard = { title: string; icon: LucideIcon; intro: string; items: string[] };

/** Three cards (docs/product.md#public-pages). */
const DOCS: DocCard[] = [
  {
    title: 'Getting Started',
    icon: BookOpen,
    intro: 'Create your first agent in about ten minutes.',
    items: [
      'Sign up, then open the dashboard.',
      'Under API Keys, store a key for the LLM provider you plan to use (OpenAI, Claude, Groq, Gemini or Deepseek).',
      'Choose Create New Agent and pick a goal: Answer questions from documents (RAG Agent), Calculate answers from tables (SQL Agent) or Create and edit images (Image Generation Agent).',
      'Follow the wizard: every step is saved as soon as you continue, so you can go back without losing work.',
      'On the last step, review the summary and start the build.',
    ],
  },
  {
    title: 'Features Overview',
    icon: Layers,
    intro: 'What each agent type can do and what you configure.',
    items: [
      'RAG agents answer from PDF, CSV, Excel or TXT files, or from Postgres, MySQL, SQLite and MongoDB, using an embedding model and a vector store (ChromaDB, Qdrant, Milvus or Pinecone).',
      'SQL agents answer analytical questions by running SQL over CSV or Excel uploads or over MySQL, Postgres and SQLite, with PandasAI, Vanna AI or SQL query chains.',
      'Both generate a Gradio or Streamlit interface and use the system prompt you write or pick from templates.',
      'The image generation agent starts with one button and needs a Gemini API key.',
    ],
  },
  {
    title: 'Deployment',
    icon: Rocket,
    intro: 'From a finished build to a running service.',
    items: [
      'When the build completes, choose Preview to try the agent in the browser.',
      'Choose Download Code to get the project as a zip: source, Dockerfile, compose file, .env example and CI/CD workflows.',
      'Copy the .env example to .env and fill in your keys; they are never written into the zip.',
      'Run docker compose up to start the agent locally, or push the project to a repository and let the included workflow build and ship the image.',
      'Or publish it: under My Agents choose Publish, and Agentloom serves the agent itself — an API with ready-to-paste examples, a share page and a chat widget for your website.',
    ],
  },
];

/** The guide the publish panel links to: the chat widget on a site, for someone who is not a developer. */
const WEBSITE_CHAT_STEPS: { title: string; text: string }[] = [
  {
    title: 'Build and publish the agent',
    text: 'Open Dashboard → My Agents. When the agent shows Built, choose Publish, then Publish again in the panel that opens.',
  },
  {
    title: 'Name the sites it may appear on',
    text: 'Under “Sites that may embed the chat widget”, type your website’s address, one per line — for example www.rosebakery.com, which allows its https:// and http:// pages; an address typed with http:// or https:// in front is kept as typed. A page’s address counts as its whole site. Choose Save sites.',
  },
  {
    title: 'Copy the snippet',
    text: 'The panel then shows one line that starts with <script. Choose Copy next to it.',
  },
  {
    title: 'Paste it into your website',
    text: 'In your site builder (WordPress, Wix, Squarespace, Shopify…) find “custom code”, “embed code” or “footer code”, and paste the line so it lands just before </body> on every page. Publish the site.',
  },
  {
    title: 'Check it',
    text: 'Choose “Test it on my site” in the panel: your page opens with a note only you see, saying that the chat works or which site to add. Your visitors see the chat button in the bottom-right corner, and nothing at all on a site that is not allowed. www.rosebakery.com and rosebakery.com count as two sites.',
  },
];

export function DocsPage() {
  return (
    <PageContainer size="xl">
      <PageHeader
        title="Documentation"
        description="Everything you need to go from an empty account to a deployed AI agent."
      />
      <div className="grid gap-6 lg:grid-cols-3">
        {DOCS.map((doc) => (
          <Card as="article" key={doc.title} className="flex flex-col">
            <IconHeading icon={doc.icon} title={doc.title} text={doc.intro} />
            <ol className="mt-4 list-decimal space-y-2 pl-5 text-sm text-slate-700 marker:text-indigo-700 dark:text-slate-200 dark:marker:text-indigo-300">
              {doc.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ol>
          </Card>
        ))}
      </div>
      <Card as="section" id="website-chat" aria-labelledby="website-chat-title" className="mt-8">
        <h2
          id="website-chat-title"
          className="text-xl font-semibold text-slate-900 dark:text-white"
        >
          Put the chat on your website
        </h2>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          Five steps, no code to write: your visitors chat with your agent on your own pages.
        </p>
        <ol className="mt-4 list-decimal space-y-3 pl-5 text-sm text-slate-700 marker:text-indigo-700 dark:text-slate-200 dark:marker:text-indigo-300">
          {WEBSITE_CHAT_STEPS.map((step) => (
            <li key={step.title}>
              <span className="font-semibold text-slate-900 dark:text-white">{step.title}.</span>{' '}
              {step.text}
            </li>
          ))}
        </ol>
      </Card>
    </PageContainer>
  );
}
