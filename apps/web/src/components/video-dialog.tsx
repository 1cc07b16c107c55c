import { Dialog } from './dialog';

/** The demo video in a modal (default export: loaded lazily from the landing hero). */
export default function VideoDialog({
  open,
  onOpenChange,
  title,
  src,
  poster,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  src: string;
  poster: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} className="max-w-4xl">
      <video
        className="aspect-video w-full rounded-lg bg-black"
        src={src}
        poster={poster}
        controls
        autoPlay
        playsInline
        preload="metadata"
      >
        <a href={src}>Download the demo video</a>
      </video>
      <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
        A tour of Agentloom: sign up, store an API key, create a RAG agent from a CSV file, watch it
        build and download the project.
      </p>
    </Dialog>
  );
}
