/** ECharts options of the Usage view: a calendar heatmap of spend by day, horizontal bars by model / project. PURE. */
import type { ChartColors, ChartOption } from '../../ui/EChart';
import { formatCost, type UsageSum } from './usage-model';

const DAY = 86_400_000;

/** The calendar: the year ending on the last day with spend. */
export function heatmapOption(days: readonly UsageSum[], c: ChartColors): ChartOption {
  const last = days.at(-1)?.key ?? new Date().toISOString().slice(0, 10);
  const first = new Date(Date.parse(last) - 364 * DAY).toISOString().slice(0, 10);
  const max = Math.max(0.01, ...days.map((d) => d.cost));
  return {
    animation: false,
    tooltip: { formatter: (p: { data: [string, number] }) => `${p.data[0]}: ${formatCost(p.data[1])}` },
    visualMap: {
      min: 0,
      max,
      show: false,
      inRange: { color: [c.panel, c.accent] },
    },
    calendar: {
      range: [first, last],
      top: 24,
      left: 36,
      right: 8,
      cellSize: ['auto', 13],
      itemStyle: { color: c.panel, borderColor: c.border, borderWidth: 1 },
      splitLine: { lineStyle: { color: c.border } },
      dayLabel: { color: c.muted, firstDay: 1, nameMap: 'en' },
      monthLabel: { color: c.muted },
      yearLabel: { show: false },
    },
    series: [
      {
        type: 'heatmap',
        coordinateSystem: 'calendar',
        data: days.filter((d) => d.key >= first).map((d) => [d.key, Number(d.cost.toFixed(4))]),
      },
    ],
  };
}

/** Horizontal bars of the top `n` sums by cost. */
export function barsOption(sums: readonly UsageSum[], c: ChartColors, n = 8): ChartOption {
  const top = sums.slice(0, n).reverse();
  return {
    animation: false,
    tooltip: {
      trigger: 'item',
      formatter: (p: { name: string; value: number }) => `${p.name}: ${formatCost(p.value)}`,
    },
    grid: { left: 8, right: 48, top: 4, bottom: 4, containLabel: true },
    xAxis: { type: 'value', show: false },
    yAxis: {
      type: 'category',
      data: top.map((s) => s.key || '(none)'),
      axisLabel: { color: c.text, width: 180, overflow: 'truncate' },
      axisLine: { lineStyle: { color: c.border } },
      axisTick: { show: false },
    },
    series: [
      {
        type: 'bar',
        data: top.map((s) => Number(s.cost.toFixed(4))),
        itemStyle: { color: c.accent, borderRadius: 2 },
        label: {
          show: true,
          position: 'right',
          color: c.muted,
          // A model without prices has tokens but no known cost: never a silent $0.
          formatter: (p: { dataIndex: number; value: number }) =>
            top[p.dataIndex]!.unpricedMessages > 0 ? `${formatCost(p.value)} + unpriced` : formatCost(p.value),
        },
      },
    ],
  };
}
