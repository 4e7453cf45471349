// Chart.js with only what the app's charts draw (lines and bars on
// category and linear scales, tooltips, legend, filled areas), registered
// once. Loaded by a dynamic import from LazyChart, so it is its own chunk
// and no route pays for it until a chart is on screen.
//
// Why Chart.js: it is maintained, draws on one canvas (cheap for hundreds
// of points), tree-shakes by registration (this chunk is ~60 KB gzipped,
// against ~100 KB for Recharts with its d3 pieces), and does not tie the
// charts to React's render cycle.

import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip);

export { Chart };
