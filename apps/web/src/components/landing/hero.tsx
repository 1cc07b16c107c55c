import { clsx } from 'clsx';
import { ArrowRight, MessageCircle, Pause, Play, PlayCircle } from 'lucide-react';
import { lazy, Suspense, useState, type MouseEvent } from 'react';
import { SITE_LINKS } from '../../layout/site';
import { usePrefersReducedMotion } from '../../lib/reduced-motion';
import { Button, buttonClasses } from '../ui';
import { HERO_PHRASES, HERO_ROTATION_MS } from './content';
import { useRotatingPhrase } from './use-rotating-phrase';

// Only loaded when someone asks for the video, so the landing page stays light.
const VideoDialog = lazy(() => import('../video-dialog'));

export const DEMO_VIDEO = {
  src: '/media/agentloom-demo.mp4',
  poster: '/media/agentloom-demo-poster.jpg',
  posterSmall: '/media/agentloom-demo-poster-640.jpg',
  posterWebp: {
    640: '/media/agentloom-demo-poster-640.webp',
    960: '/media/agentloom-demo-poster-960.webp',
    1280: '/media/agentloom-demo-poster-1280.webp',
  },
  posterWidth: 1280,
  posterHeight: 720,
};

const POSTER_SIZES = '(min-width: 1280px) 600px, (min-width: 1024px) 46vw, calc(100vw - 2rem)';

/**
 * The landing hero (docs/product.md#public-pages). `onGetStarted` decides where "Get Started"
 * leads.
 */
export function Hero({ onGetStarted }: { onGetStarted: () => void }) {
  const reducedMotion = usePrefersReducedMotion();
  // WCAG 2.2.2: text that changes on its own for more than 5 s needs a way to stop it. Until the
  // user presses the toggle, the system's reduced-motion setting decides; after that, their choice.
  const [pausedByUser, setPausedByUser] = useState<boolean | null>(null);
  const paused = pausedByUser ?? reducedMotion;
  const phrase = useRotatingPhrase(HERO_PHRASES, HERO_ROTATION_MS, paused);
  const [videoOpen, setVideoOpen] = useState(false);

  function openVideo(event: MouseEvent<HTMLAnchorElement>) {
    // Without JavaScript the link still opens the file; with it, the video plays in a dialog.
    event.preventDefault();
    setVideoOpen(true);
  }

  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-indigo-50 via-white to-white dark:from-slate-900 dark:via-slate-950 dark:to-slate-950">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:px-8 lg:py-24">
        <div>
          <p className="inline-flex items-center rounded-full bg-indigo-100 px-3 py-1 text-sm font-medium text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
            The no-code builder for AI agents
          </p>
          <RotatingHeadline phrase={phrase} />
          <Button
            variant="ghost"
            size="sm"
            className="mt-3 -ml-3"
            onClick={() => setPausedByUser(!paused)}
          >
            {paused ? (
              <Play aria-hidden="true" className="h-4 w-4" />
            ) : (
              <Pause aria-hidden="true" className="h-4 w-4" />
            )}
            {paused ? 'Play animation' : 'Pause animation'}
          </Button>
          <p className="mt-6 max-w-xl text-lg text-slate-600 dark:text-slate-300">
            Pick a data source, an LLM and a system prompt, press build, and get a complete agent
            you can preview in your browser and download as a ready-to-deploy project.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Button size="lg" onClick={onGetStarted}>
              Get Started
              <ArrowRight aria-hidden="true" className="h-5 w-5" />
            </Button>
            <a href={DEMO_VIDEO.src} onClick={openVideo} className={buttonClasses('outline', 'lg')}>
              <PlayCircle aria-hidden="true" className="h-5 w-5" />
              Watch Demo Video
            </a>
            <a
              href={SITE_LINKS.contactChat}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClasses('ghost', 'lg')}
            >
              <MessageCircle aria-hidden="true" className="h-5 w-5" />
              Contact us
            </a>
          </div>
        </div>
        <DemoPoster onOpen={openVideo} />
      </div>
      {videoOpen && (
        <Suspense fallback={null}>
          <VideoDialog
            open={videoOpen}
            onOpenChange={setVideoOpen}
            title="Agentloom demo"
            src={DEMO_VIDEO.src}
            poster={DEMO_VIDEO.poster}
          />
        </Suspense>
      )}
    </section>
  );
}

/** The headline with its rotating phrase (HERO_PHRASES). */
function RotatingHeadline({ phrase }: { phrase: string }) {
  return (
    <h1 className="mt-6 text-[2rem] leading-tight font-extrabold tracking-tight text-slate-900 sm:text-5xl sm:leading-tight lg:text-[2.75rem] xl:text-[3.25rem] dark:text-white">
      Create powerful{' '}
      {/*
        Every phrase sits in the same grid cell, only the current one visible, so the
        headline is always as tall as its longest phrase and nothing below it jumps.
      */}
      <span className="grid" data-testid="hero-phrases">
        {HERO_PHRASES.map((candidate) => (
          <span
            key={candidate}
            aria-hidden={candidate !== phrase || undefined}
            data-testid={candidate === phrase ? 'hero-phrase' : undefined}
            className={clsx(
              'col-start-1 row-start-1 whitespace-nowrap bg-gradient-to-r from-indigo-600 to-fuchsia-600 bg-clip-text text-transparent dark:from-indigo-300 dark:to-fuchsia-300',
              candidate === phrase ? 'visible' : 'invisible',
            )}
          >
            {candidate}
          </span>
        ))}
      </span>
      without writing code
    </h1>
  );
}

/** The demo video's poster; a click plays the video in a dialog (the link opens the file). */
function DemoPoster({ onOpen }: { onOpen: (event: MouseEvent<HTMLAnchorElement>) => void }) {
  return (
    <a
      href={DEMO_VIDEO.src}
      onClick={onOpen}
      className="group relative block overflow-hidden rounded-2xl border border-slate-200 shadow-xl ring-indigo-500 focus-visible:outline-none focus-visible:ring-4 dark:border-slate-800"
      aria-label="Play the Agentloom demo video"
    >
      <picture>
        <source
          type="image/webp"
          srcSet={`${DEMO_VIDEO.posterWebp[640]} 640w, ${DEMO_VIDEO.posterWebp[960]} 960w, ${DEMO_VIDEO.posterWebp[1280]} 1280w`}
          sizes={POSTER_SIZES}
        />
        <img
          src={DEMO_VIDEO.poster}
          srcSet={`${DEMO_VIDEO.posterSmall} 640w, ${DEMO_VIDEO.poster} 1280w`}
          sizes={POSTER_SIZES}
          width={DEMO_VIDEO.posterWidth}
          height={DEMO_VIDEO.posterHeight}
          alt="The Agentloom dashboard: create an agent, manage agents and API keys"
          className="h-auto w-full transition-transform duration-300 group-hover:scale-[1.02]"
          fetchPriority="high"
        />
      </picture>
      <span className="absolute inset-0 grid place-items-center bg-slate-950/20 transition-colors group-hover:bg-slate-950/30">
        <span className="grid h-16 w-16 place-items-center rounded-full bg-white/95 text-indigo-700 shadow-lg">
          <PlayCircle aria-hidden="true" className="h-10 w-10" />
        </span>
      </span>
    </a>
  );
}
