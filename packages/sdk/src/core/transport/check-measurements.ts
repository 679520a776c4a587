/**
 * Beside check (c): the platform measurements a client pinned. The compose hash (RTMR3's event
 * log) names the application; MRTD and RTMR0–2 name what it runs on (virtual firmware, kernel,
 * command line and initrd of the CVM image), so a client that pins them refuses an image it did
 * not audit even when the application is the pinned release. Unpinned registers are not checked.
 */
import type { TDReport10 } from '@phala/dcap-qvl';
import { RTMR_BYTES } from '@nightjar/protocol';
import { MEASUREMENT_REGISTERS, type PinnedMeasurements, type PlatformMeasurements } from './measurements.js';

export {
  MEASUREMENT_REGISTERS,
  type MeasurementRegister,
  type PinnedMeasurements,
  type PlatformMeasurements,
} from './measurements.js';
import { NIGHTJAR_ERROR__ATTESTATION_MEASUREMENT, NightjarError } from '../errors/index.js';

const MEASUREMENT_HEX = new RegExp(`^[0-9a-fA-F]{${RTMR_BYTES * 2}}$`);

/** Throws a `RangeError` for a pin that is not 48 bytes of hex: a configuration error, caught early. */
export function assertPinnedMeasurements(pinned: PinnedMeasurements | undefined): void {
  for (const [register, value] of Object.entries(pinned ?? {})) {
    if (!(MEASUREMENT_REGISTERS as readonly string[]).includes(register))
      throw new RangeError(`unknown measurement register ${register}`);
    if (value !== undefined && !MEASUREMENT_HEX.test(value))
      throw new RangeError(`pinned ${register} must be ${RTMR_BYTES} bytes of hex`);
  }
}

export function platformMeasurements(td: TDReport10): PlatformMeasurements {
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  return { mrtd: hex(td.mrTd), rtmr0: hex(td.rtMr0), rtmr1: hex(td.rtMr1), rtmr2: hex(td.rtMr2) };
}

export interface CheckMeasurementsParameters {
  td: TDReport10;
  pinned: PinnedMeasurements | undefined;
}

export function checkMeasurements(params: CheckMeasurementsParameters): PlatformMeasurements {
  assertPinnedMeasurements(params.pinned);
  const actual = platformMeasurements(params.td);
  for (const register of MEASUREMENT_REGISTERS) {
    const pinned = params.pinned?.[register];
    if (pinned !== undefined && pinned.toLowerCase() !== actual[register])
      throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_MEASUREMENT, { register });
  }
  return actual;
}
