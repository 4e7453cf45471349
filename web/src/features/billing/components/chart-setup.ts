// Chart.js with only what the usage chart draws (stacked bars on a
// category and a linear scale, tooltips, legend), registered once. The
// same dependency the finance charts use; this module is reached only by
// a dynamic import from UsageChart, so it is its own chunk.

import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, Legend, LinearScale, Tooltip);

export { Chart };
