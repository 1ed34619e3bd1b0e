/** The Storage view's chart: the largest sessions as stacked bars of their parts. PURE. */
import { formatBytes } from '../../lib/format';
import type { StorageRowDto } from '../../lib/shared';
import type { ChartColors, ChartOption } from '../../ui/EChart';
import { PARTS } from './storage-model';

export function stackedOption(
  rows: readonly StorageRowDto[],
  label: (r: StorageRowDto) => string,
  c: ChartColors,
): ChartOption {
  const top = rows.slice(0, 12).reverse();
  return {
    animation: false,
    tooltip: {
      trigger: 'item',
      formatter: (p: { seriesName: string; name: string; value: number }) =>
        `${p.name}<br>${p.seriesName}: ${formatBytes(p.value)}`,
    },
    legend: { top: 0, textStyle: { color: c.text }, itemWidth: 12, itemHeight: 10 },
    grid: { left: 8, right: 16, top: 28, bottom: 4, containLabel: true },
    xAxis: {
      type: 'value',
      axisLabel: { color: c.muted, formatter: (v: number) => formatBytes(v) },
      splitLine: { lineStyle: { color: c.border } },
    },
    yAxis: {
      type: 'category',
      data: top.map((r) => r.sessionId),
      axisLabel: {
        color: c.text,
        width: 220,
        overflow: 'truncate',
        formatter: (id: string) => label(top.find((r) => r.sessionId === id)!),
      },
      axisTick: { show: false },
      axisLine: { lineStyle: { color: c.border } },
    },
    series: PARTS.map((p, i) => ({
      name: p.label,
      type: 'bar',
      stack: 'bytes',
      data: top.map((r) => r[p.key]),
      itemStyle: { color: c.series[i % c.series.length] },
    })),
  };
}
