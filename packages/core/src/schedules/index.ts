export { createSchedule, deleteSchedule, getSchedule, listSchedules, patchSchedule, upcomingOf } from "./schedules.ts";
export { getOccurrence, listOccurrences, type OccurrenceReader } from "./occurrences.ts";
export { materializeOccurrences, missOccurrences, openOccurrences, remindOccurrences } from "./sweep.ts";
