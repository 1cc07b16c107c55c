/**
 * Small illustrations of the two generated UIs (each UI card has an image:
 * docs/product.md#the-wizard-user-interface). Drawn as SVG so they stay sharp, weigh a few hundred
 * bytes and follow the theme's surface colours.
 */
import type { ReactNode } from 'react';

/** The window both pictures are drawn in: a rounded frame in the UI's own colour. */
function IllustrationFrame({
  label,
  surfaceClassName,
  stroke,
  children,
}: {
  label: string;
  surfaceClassName: string;
  stroke: string;
  children: ReactNode;
}) {
  return (
    <svg role="img" aria-label={label} viewBox="0 0 240 140" className="h-auto w-full">
      <rect
        x="1"
        y="1"
        width="238"
        height="138"
        rx="12"
        className={surfaceClassName}
        stroke={stroke}
        strokeWidth="2"
      />
      {children}
    </svg>
  );
}

/** A white (in dark mode, slate) panel inside the frame: a chat log, a chart, a text box. */
function Panel(box: {
  x: number;
  y: number;
  width: number;
  height: number;
  rx: number;
  stroke: string;
}) {
  return <rect {...box} className="fill-white dark:fill-slate-900" />;
}

export function GradioIllustration() {
  return (
    <IllustrationFrame
      label="Gradio interface: a chat panel with a message box and a Submit button"
      surfaceClassName="fill-orange-50 dark:fill-slate-800"
      stroke="#f97316"
    >
      <circle cx="16" cy="14" r="4" fill="#f97316" />
      <circle cx="28" cy="14" r="4" fill="#fdba74" />
      <circle cx="40" cy="14" r="4" fill="#fed7aa" />
      <Panel x={14} y={28} width={212} height={70} rx={8} stroke="#fdba74" />
      <rect x="24" y="38" width="110" height="14" rx="7" fill="#fed7aa" />
      <rect x="96" y="58" width="120" height="14" rx="7" fill="#f97316" />
      <rect x="24" y="78" width="86" height="12" rx="6" fill="#fed7aa" />
      <Panel x={14} y={106} width={150} height={22} rx={6} stroke="#fdba74" />
      <rect x="172" y="106" width="54" height="22" rx="6" fill="#ea580c" />
      <text
        x="199"
        y="121"
        textAnchor="middle"
        fontSize="10"
        fontFamily="sans-serif"
        fontWeight="600"
        fill="#ffffff"
      >
        Submit
      </text>
    </IllustrationFrame>
  );
}

export function StreamlitIllustration() {
  return (
    <IllustrationFrame
      label="Streamlit app: a sidebar with controls next to a bar chart and a data table"
      surfaceClassName="fill-rose-50 dark:fill-slate-800"
      stroke="#ff4b4b"
    >
      <rect x="1" y="1" width="62" height="138" rx="12" fill="#ffe4e6" />
      <rect x="12" y="16" width="40" height="8" rx="4" fill="#ff4b4b" />
      <rect x="12" y="34" width="40" height="12" rx="4" fill="#ffffff" stroke="#fda4af" />
      <rect x="12" y="54" width="40" height="12" rx="4" fill="#ffffff" stroke="#fda4af" />
      <rect x="12" y="78" width="40" height="4" rx="2" fill="#fda4af" />
      <circle cx="30" cy="80" r="5" fill="#ff4b4b" />
      <rect x="76" y="16" width="90" height="10" rx="5" fill="#ff4b4b" />
      <Panel x={76} y={36} width={150} height={56} rx={6} stroke="#fda4af" />
      <rect x="88" y="66" width="14" height="20" rx="2" fill="#ff4b4b" />
      <rect x="110" y="52" width="14" height="34" rx="2" fill="#fb7185" />
      <rect x="132" y="60" width="14" height="26" rx="2" fill="#ff4b4b" />
      <rect x="154" y="46" width="14" height="40" rx="2" fill="#fb7185" />
      <rect x="176" y="56" width="14" height="30" rx="2" fill="#ff4b4b" />
      <rect x="198" y="70" width="14" height="16" rx="2" fill="#fb7185" />
      <Panel x={76} y={100} width={150} height={28} rx={6} stroke="#fda4af" />
      <line x1="76" y1="114" x2="226" y2="114" stroke="#fecdd3" />
      <line x1="126" y1="100" x2="126" y2="128" stroke="#fecdd3" />
      <line x1="176" y1="100" x2="176" y2="128" stroke="#fecdd3" />
    </IllustrationFrame>
  );
}
