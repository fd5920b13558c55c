/**
 * Time zones as the server knows them (src/domain/time-zones.ts), for the browser: it shows
 * dates and reads the wall times people type by the same rules and the same default.
 */
export {
  DEFAULT_TIME_ZONE,
  instantOfWallClock,
  isTimeZone,
  zoneOrDefault,
} from '../../../domain/time-zones.js';
