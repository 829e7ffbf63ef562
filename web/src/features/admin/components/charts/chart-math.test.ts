import { describe, expect, it } from 'vitest';
import {
  chartWidth,
  labelEvery,
  linear,
  mirror,
  niceScale,
  niceStep,
  peakIndex,
  runningTotals,
  share,
  slots,
} from './chart-math';

describe('the charts’ arithmetic', () => {
  it('steps an axis by 1, 2 or 5 times a power of ten', () => {
    expect([0.3, 1, 1.2, 3, 7, 12, 40, 180].map(niceStep)).toEqual([0.5, 1, 2, 5, 10, 20, 50, 200]);
    expect(niceStep(0)).toBe(1);
  });

  it('gives a scale from zero to a round value above the largest, in about four steps', () => {
    expect(niceScale([3, 80, 41])).toEqual({ min: 0, max: 80, ticks: [0, 20, 40, 60, 80] });
    expect(niceScale([0, 0]).ticks).toEqual([0, 0.5, 1]);
    expect(niceScale([], { integer: true })).toEqual({ min: 0, max: 1, ticks: [0, 1] });
    expect(niceScale([3], { integer: true }).ticks).toEqual([0, 1, 2, 3]);
  });

  it('reaches below zero when a value does (a day that gave back more than it took)', () => {
    const scale = niceScale([-150, 300]);
    expect(scale.min).toBe(-200);
    expect(scale.max).toBe(400);
    expect(scale.ticks).toContain(0);
  });

  it('keeps float noise out of the ticks', () => {
    expect(niceScale([0.3]).ticks).toEqual([0, 0.1, 0.2, 0.3]);
  });

  it('maps a value onto a range, bottom to top', () => {
    const y = linear({ min: 0, max: 100 }, 200, 0);
    expect([y(0), y(50), y(100)]).toEqual([200, 100, 0]);
    expect(linear({ min: 0, max: 0 }, 10, 0)(0)).toBe(10);
  });

  it('lays slots from the start side, and mirrors them in a right-to-left page', () => {
    const s = slots(4, 40, 440);
    expect(s.width).toBe(100);
    expect([s.x(0), s.centre(0), s.x(3)]).toEqual([40, 90, 340]);
    const m = mirror(500, true);
    // The first slot of a right-to-left chart sits at the right.
    expect(m.box(s.x(0), s.width)).toBe(360);
    expect(m.x(s.centre(0))).toBe(410);
    const ltr = mirror(500, false);
    expect([ltr.box(40, 100), ltr.x(90)]).toEqual([40, 90]);
  });

  it('labels every slot that has room, or every few', () => {
    expect(labelEvery(50, 40)).toBe(1);
    expect(labelEvery(12, 40)).toBe(4);
    expect(labelEvery(0, 40)).toBe(1);
  });

  it('draws wider than its box when the slots would be too narrow (the figure scrolls)', () => {
    expect(chartWidth(358, 30, 9, 80)).toBe(358);
    expect(chartWidth(358, 90, 9, 80)).toBe(890);
  });

  it('adds up running totals, finds the peak and the share', () => {
    expect(runningTotals([2, 0, 3])).toEqual([2, 2, 5]);
    expect(peakIndex([0, 4, 9, 9])).toBe(2);
    expect(peakIndex([0, 0])).toBe(-1);
    expect(share(1, 4)).toBe(0.25);
    expect(share(1, 0)).toBe(0);
  });
});
