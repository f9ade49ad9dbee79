export { createSchedule, deleteSchedule, getSchedule, listSchedules, patchSchedule, upcomingOf } from "./schedules.ts";
export { getOccurrence, listOccurrences, type OccurrenceReader } from "./occurrences.ts";
export { occurrenceOfInspection, occurrenceViolations, recordOccurrenceWork } from "./complete.ts";
export { reassignLeavers } from "./leavers.ts";
export { materializeOccurrences, missOccurrences, openOccurrences, remindOccurrences } from "./sweep.ts";
