/**
 * An ECharts chart (only the chart types and components the store views use are imported), drawn in
 * the theme's colours: `option` is built from the resolved CSS variables and rebuilt when the theme
 * or the OS colour scheme changes. Clicks on data items go to `onClick`.
 */
import { useEffect, useRef, useState } from 'react';
import { BarChart, HeatmapChart } from 'echarts/charts';
import {
  CalendarComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useCanopy } from '../app-context';

echarts.use([
  BarChart,
  HeatmapChart,
  CalendarComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
  CanvasRenderer,
]);

export type ChartOption = echarts.EChartsCoreOption;

/** The theme's colours, resolved (ECharts draws on a canvas: it cannot read CSS variables). */
export interface ChartColors {
  text: string;
  muted: string;
  border: string;
  panel: string;
  accent: string;
  /** Categorical series colours. */
  series: string[];
}

const SERIES_VARS = ['--accent', '--danger', '--ok', '--warn', '--faint', '--path'];

function resolve(el: HTMLElement, name: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${name})`;
  probe.style.display = 'none';
  el.appendChild(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

function colorsOf(el: HTMLElement): ChartColors {
  return {
    text: resolve(el, '--text'),
    muted: resolve(el, '--muted'),
    border: resolve(el, '--border'),
    panel: resolve(el, '--panel'),
    accent: resolve(el, '--accent'),
    series: SERIES_VARS.map((v) => resolve(el, v)),
  };
}

/** Changes whenever the colours may have: the chosen theme, or the OS scheme under 'system'. */
function useSchemeKey(): string {
  const theme = useCanopy((s) => s.theme);
  const [dark, setDark] = useState(() => window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false);
  useEffect(() => {
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    if (!mq) return;
    const on = () => setDark(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return `${theme}:${dark}`;
}

export function EChart({
  option,
  onClick,
  height,
  label,
  testId,
}: {
  option: (colors: ChartColors) => ChartOption;
  onClick?: (params: { name?: string; data?: unknown; seriesName?: string }) => void;
  height: number;
  label: string;
  testId?: string;
}) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const clicked = useRef(onClick);
  clicked.current = onClick;
  const scheme = useSchemeKey();

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const c = echarts.init(node, undefined, { renderer: 'canvas' });
    chart.current = c;
    c.on('click', (p) => clicked.current?.(p as { name?: string; data?: unknown; seriesName?: string }));
    const resize = new ResizeObserver(() => c.resize());
    resize.observe(node);
    return () => {
      resize.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const node = el.current;
    if (!node || !chart.current) return;
    chart.current.setOption(option(colorsOf(node)), true);
  }, [option, scheme]);

  return <div ref={el} className="echart" style={{ height }} role="img" aria-label={label} data-testid={testId} />;
}
