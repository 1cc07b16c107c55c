import { useMutation, useQuery } from '@tanstack/react-query';
import { ArrowLeft, ExternalLink, Eye, ImagePlus, KeyRound, Rocket, Wand2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  Alert,
  Button,
  buttonClasses,
  Card,
  PageContainer,
  PageHeader,
  Spinner,
} from '../../components/ui';
import { api, framedGatewayPage } from '../../lib/api';
import {
  LAUNCH_FAILED,
  launchUrlProblem,
  PREVIEW_DELAY_MS,
  PREVIEW_LOAD_TIMEOUT_MS,
} from './launch-url';

const HOW_TO = [
  {
    icon: KeyRound,
    title: 'Set a Gemini API key',
    text: 'Open the generator and enter your Google Gemini API key in its settings.',
  },
  {
    icon: Wand2,
    title: 'Describe, run and download',
    text: 'Describe the image you want, run the generator and download the image it creates.',
  },
  {
    icon: ImagePlus,
    title: 'Upload and describe edits',
    text: 'Upload the downloaded image and describe the edits you want; the agent returns the edited image.',
  },
] as const;

/**
 * Ready and preview both carry the launched URL, so preview mode cannot exist without one; a
 * launch answer without a URL stays on the launch state with 'Streamlit URL not available'.
 */
type Screen = { mode: 'launch' } | { mode: 'ready' | 'preview'; url: string };

const READY_TITLE_ID = 'image-ready';
const PREVIEW_TITLE_ID = 'image-preview-title';

/**
 * /build/image (docs/product.md#the-image-agent): idle → launching → ready → (after 0.5 s) preview.
 * The image agent is an external Streamlit app started by the server; this screen launches and
 * embeds it.
 */
export function ImageAgentPage() {
  const [screen, setScreen] = useState<Screen>({ mode: 'launch' });
  const [error, setError] = useState<string | null>(null);
  const focusedMode = useRef(screen.mode);

  const launch = useMutation({
    mutationFn: () => api<{ url?: unknown }>('/img/launch-streamlit-app', { method: 'POST' }),
    onMutate: () => setError(null),
    onSuccess: (answer) => {
      const url = answer?.url;
      const problem = launchUrlProblem(url);
      if (problem === null && typeof url === 'string') setScreen({ mode: 'ready', url });
      else setError(problem);
    },
    onError: () => setError(LAUNCH_FAILED),
  });

  // Each change replaces the focused button (Launch, Preview Agent, Back to Generator) with a new
  // state; keyboard and screen-reader users continue from that state's heading, not from <body>.
  useEffect(() => {
    if (focusedMode.current === screen.mode) return;
    focusedMode.current = screen.mode;
    if (screen.mode !== 'launch') {
      document.getElementById(screen.mode === 'ready' ? READY_TITLE_ID : PREVIEW_TITLE_ID)?.focus();
    }
  }, [screen.mode]);

  if (screen.mode === 'preview') {
    const { url } = screen;
    return <ImagePreview url={url} onBack={() => setScreen({ mode: 'ready', url })} />;
  }

  return (
    <PageContainer size="md">
      <PageHeader
        title="AI Image Generation Agent"
        description="Generate images from a description and edit them with Google Gemini, in a ready-made Streamlit app started with one click."
      />

      {screen.mode === 'ready' ? (
        <ReadyCard
          url={screen.url}
          onPreview={() => setScreen({ mode: 'preview', url: screen.url })}
        />
      ) : (
        <LaunchCard launching={launch.isPending} error={error} onLaunch={() => launch.mutate()} />
      )}

      <HowItWorks />
    </PageContainer>
  );
}

/** The launched app's address and what to do with it: preview here, open it, or leave. */
function ReadyCard({ url, onPreview }: { url: string; onPreview: () => void }) {
  return (
    <Card as="section" aria-labelledby={READY_TITLE_ID} className="text-center">
      <Rocket aria-hidden="true" className="mx-auto h-10 w-10 text-green-700 dark:text-green-400" />
      <h2
        id={READY_TITLE_ID}
        tabIndex={-1}
        className="mt-3 text-xl font-semibold text-slate-900 focus:outline-none dark:text-white"
      >
        Image Agent Ready!
      </h2>
      <p className="mt-1 text-sm break-all text-slate-700 dark:text-slate-300">Running at {url}</p>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Button size="lg" onClick={onPreview}>
          <Eye aria-hidden="true" className="h-4 w-4" />
          Preview Agent
        </Button>
        <OpenInNewTab url={url} />
        <Link to="/dashboard" className={buttonClasses('ghost', 'lg')}>
          Back to Dashboard
        </Link>
      </div>
    </Card>
  );
}

function LaunchCard({
  launching,
  error,
  onLaunch,
}: {
  launching: boolean;
  error: string | null;
  onLaunch: () => void;
}) {
  return (
    <Card as="section" aria-label="Launch" className="text-center">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        The generator runs as its own app. Launch it, then preview it here or open it in a new tab.
      </p>
      <Button size="lg" className="mt-5" loading={launching} onClick={onLaunch}>
        {!launching && <Rocket aria-hidden="true" className="h-4 w-4" />}
        {launching ? 'Launching...' : 'Launch Image Generator'}
      </Button>
      {error && <Alert className="mt-5 text-left">{error}</Alert>}
    </Card>
  );
}

/** The three steps of using the generator, below either state. */
function HowItWorks() {
  return (
    <section aria-labelledby="image-how-to" className="mt-10">
      <h2 id="image-how-to" className="text-lg font-semibold text-slate-900 dark:text-white">
        How it works
      </h2>
      <ol className="mt-4 grid gap-4 sm:grid-cols-3">
        {HOW_TO.map((item, index) => (
          <li
            key={item.title}
            className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
          >
            <div className="flex items-center gap-2">
              <span
                aria-hidden="true"
                className="flex h-7 w-7 items-center justify-center rounded-full bg-indigo-100 text-sm font-bold text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
              >
                {index + 1}
              </span>
              <item.icon
                aria-hidden="true"
                className="h-5 w-5 text-indigo-700 dark:text-indigo-300"
              />
            </div>
            <h3 className="mt-3 font-semibold text-slate-900 dark:text-white">{item.title}</h3>
            <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{item.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function OpenInNewTab({ url }: { url: string }) {
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClasses('outline', 'lg')}
    >
      <ExternalLink aria-hidden="true" className="h-4 w-4" />
      Open in New Tab
    </a>
  );
}

function ImagePreview({ url, onBack }: { url: string; onBack: () => void }) {
  const [shown, setShown] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [timedOut, setTimedOut] = useState(false);

  // The frame cannot tell us the app is down, but fetch can: a cross-origin answer is opaque in
  // no-cors mode and still resolves, while a refused connection or unknown host rejects.
  // The page as this origin frames it (a /p/ page through the app's own origin).
  const framed = framedGatewayPage(url);
  const reachable = useQuery({
    queryKey: ['image-agent', 'reachable', framed],
    queryFn: ({ signal }) =>
      fetch(framed, { mode: 'no-cors', cache: 'no-store', signal }).then(() => true),
    retry: false,
    // Checked once each time the preview opens.
    staleTime: Infinity,
    gcTime: 0,
  });

  useEffect(() => {
    const timer = setTimeout(() => setShown(true), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  // A server that accepts the connection but never sends the page passes the check above.
  useEffect(() => {
    if (loaded) return;
    const timer = setTimeout(() => setTimedOut(true), PREVIEW_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [loaded]);

  return (
    <PageContainer size="xl" className="py-8">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h1
          id={PREVIEW_TITLE_ID}
          tabIndex={-1}
          className="text-2xl font-bold text-slate-900 focus:outline-none dark:text-white"
        >
          Image Agent Preview
        </h1>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="lg" onClick={onBack}>
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            Back to Generator
          </Button>
          <OpenInNewTab url={url} />
        </div>
      </div>
      {reachable.isError || timedOut ? (
        <PreviewMessage title="Preview unavailable" text="Preview failed to load." />
      ) : shown ? (
        <iframe
          title="Image Agent Preview"
          src={framed}
          sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-downloads"
          onLoad={() => setLoaded(true)}
          className="h-[80vh] w-full rounded-xl border border-slate-200 bg-white dark:border-slate-800"
        />
      ) : (
        <div className="flex h-[80vh] items-center justify-center rounded-xl border border-slate-200 dark:border-slate-800">
          <Spinner size="lg" label="Loading preview…" />
        </div>
      )}
    </PageContainer>
  );
}

function PreviewMessage({ title, text }: { title: string; text: string }) {
  return (
    <div
      role="alert"
      className="flex h-[50vh] flex-col items-center justify-center rounded-xl border-2 border-dashed border-slate-300 p-6 text-center dark:border-slate-700"
    >
      <p className="font-semibold text-slate-900 dark:text-white">{title}</p>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{text}</p>
    </div>
  );
}
