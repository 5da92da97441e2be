// Issued and retired credits per vintage as a small bar chart in inline SVG (no chart library).
// The SVG has role="img" and a label that says the same numbers in words.
import { formatCount } from '@renderer/lib/format';

export interface VintageBars {
  vintage: string;
  issued: number;
  retired: number;
}

const BAR_WIDTH = 18;
const GAP = 4;
const GROUP_GAP = 22;
const HEIGHT = 140;
const LABEL_SPACE = 34;

function compact(n: number): string {
  return new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

export function CreditsChart({ bars }: { bars: VintageBars[] }) {
  if (bars.length === 0) return null;
  const max = Math.max(1, ...bars.map((b) => Math.max(b.issued, b.retired)));
  const groupWidth = BAR_WIDTH * 2 + GAP;
  const width = bars.length * (groupWidth + GROUP_GAP) + GROUP_GAP;
  const scale = (n: number) => (n / max) * (HEIGHT - 16);
  const description = bars.map((b) => `${b.vintage}: ${formatCount(b.issued)} t issued, ${formatCount(b.retired)} t retired`).join('; ');
  return (
    <figure className="chart">
      <svg
        role="img"
        aria-label={`Credits by vintage. ${description}`}
        viewBox={`0 0 ${width} ${HEIGHT + LABEL_SPACE}`}
        width={width}
        height={HEIGHT + LABEL_SPACE}
      >
        <line x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} className="chart-axis" />
        {bars.map((b, i) => {
          const x = GROUP_GAP + i * (groupWidth + GROUP_GAP);
          const issuedHeight = scale(b.issued);
          const retiredHeight = scale(b.retired);
          return (
            <g key={b.vintage}>
              <rect className="chart-bar-issued" x={x} y={HEIGHT - issuedHeight} width={BAR_WIDTH} height={issuedHeight} rx={2}>
                <title>{`${b.vintage}: ${formatCount(b.issued)} t issued`}</title>
              </rect>
              <rect
                className="chart-bar-retired"
                x={x + BAR_WIDTH + GAP}
                y={HEIGHT - retiredHeight}
                width={BAR_WIDTH}
                height={retiredHeight}
                rx={2}
              >
                <title>{`${b.vintage}: ${formatCount(b.retired)} t retired`}</title>
              </rect>
              <text className="chart-value" x={x + BAR_WIDTH / 2} y={HEIGHT - issuedHeight - 4} textAnchor="middle">
                {compact(b.issued)}
              </text>
              <text className="chart-label" x={x + groupWidth / 2} y={HEIGHT + 18} textAnchor="middle">
                {b.vintage}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="chart-legend">
        <span className="legend-swatch legend-issued" aria-hidden="true" /> Issued (ex-post)
        <span className="legend-swatch legend-retired" aria-hidden="true" /> Retired
      </figcaption>
    </figure>
  );
}
