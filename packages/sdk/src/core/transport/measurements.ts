/** The platform registers a client may pin (MRTD and RTMR0–2) and their values' shapes. */
export const MEASUREMENT_REGISTERS = ['mrtd', 'rtmr0', 'rtmr1', 'rtmr2'] as const;
export type MeasurementRegister = (typeof MEASUREMENT_REGISTERS)[number];

/** Pinned values, 48 bytes of hex each (either case); any subset. */
export type PinnedMeasurements = Partial<Record<MeasurementRegister, string>>;
/** The quote's values, lower-case hex. */
export type PlatformMeasurements = Record<MeasurementRegister, string>;
