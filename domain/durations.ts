/**
 * A day in milliseconds, for retention windows, grace periods and date arithmetic. It sits in the
 * domain because every layer may import the domain: one constant, not one per module. A day counted
 * this way is 24 hours of UTC, which has no daylight-saving days, so it is also a calendar day there.
 */
export const DAY_MS = 86_400_000;
