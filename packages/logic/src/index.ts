/**
 * @insp/logic — the conditional-logic engine of inspection templates. Pure: no I/O, no framework.
 * Used when a template is saved (validateLogicGraph) and when an inspection is imported
 * (visibleQuestions, checkAnswerValue, validateAnswers).
 *
 * Decided semantics
 *
 * Input types (case-insensitive): SELECT, RADIO, CHECKBOX, DROPDOWN are single choice; MULTI_SELECT,
 * CHECKBOXES are multiple choice; NUMBER; DATE, DATETIME are dates; BOOLEAN; TEXT and every unknown
 * type (TEXTAREA, PHOTO, SIGNATURE, ...) are text.
 *
 * An answer has a value when any of these is present: answerText (non-empty after trim), answerNumber,
 * answerBoolean, answerDate, answerJson (not null; an empty array is no value), responseOptionId,
 * templateOptionId. unitId and unitCategory alone are not a value.
 *
 * Selected options of a choice answer: responseOptionId, templateOptionId, answerText and answerJson
 * (an array of tokens, or a single token). Each token is an option id or an option value (matched by
 * id first, then value, after trimming) and resolves to an option of the question.
 *
 * Visibility: a question no rule targets is visible. A targeted question is visible iff at least one
 * rule targeting it holds AND that rule's source is visible (OR over rules; hiding a parent hides its
 * whole subtree unless another visible route shows a question). A question on a rule cycle (including a
 * rule from a question to itself) is hidden. The result does not depend on rule or question order.
 * Rules whose source or target is not a question of the template are skipped everywhere.
 *
 * Conditions: on a source without a value only is_empty holds, every other operator (negative ones too)
 * is false. On an answered source every negative operator is the exact complement of its positive one
 * (is_not_equals/equals, is_not_selected/is_selected, is_not_one_of/is_one_of, is_not_empty/is_empty).
 * - equals: choice — the value (trimmed) is the id or value of a selected option (multi: among the
 *   selected); NUMBER — numeric equality, value a number or numeric string, answer from answerNumber or a
 *   numeric answerText; BOOLEAN — value true/false or "true"/"false"/"yes"/"no", answer from answerBoolean
 *   or answerText "true"/"false"; DATE — same instant when both carry a time, same UTC day when either is
 *   date-only; text — exact string equality with answerText.
 * - is_selected: choice only (false on other types): that option is selected.
 * - is_one_of: the value is an array or a comma-separated string (items trimmed); holds when equals
 *   holds for any item.
 * - greater_than / less_than: strict, NUMBER (numbers) and DATE (instants; a date-only value is midnight
 *   UTC, a date-time without offset is read as UTC); false on other types or non-comparable values.
 * - greater_than_or_equal / less_than_or_equal: as greater_than / less_than, equality included.
 * - between: value [low, high], inclusive at both ends; NUMBER and DATE.
 * - before / after: strict, DATE only (the same comparison as less_than / greater_than).
 * - contains / not_contains / starts_with: TEXT only, case-insensitive on answerText; not_contains is
 *   the complement of contains on an answered source.
 * - Unknown condition types never hold.
 *
 * Groups: a rule's condition may be {all: [c, ...]}, {any: [c, ...]} or {not: c}, nested; a leaf reads
 * the rule's source unless it names another question (sourceKey, or sourceQuestionId). A rule shows
 * its target when its own source is shown and its condition holds, where a leaf on a hidden question
 * sees no answer (so `not` of a leaf is not the leaf's negative operator on an unanswered source).
 * Every question a condition reads is an edge of the graph: cycles through leaves hide as any other.
 *
 * Answer rules: actionType require_note, require_photo, require_action and flag do not take part in
 * visibility. When such a rule's source and target are shown and its condition holds, the target's
 * answer must carry a note / an image / a corrective action (evaluateInspection lists what is
 * missing), or is flagged. Scores: evaluateInspection (outcome.ts) documents the arithmetic.
 *
 * Dates are strict ISO 8601: YYYY-MM-DD or YYYY-MM-DDTHH:mm[:ss[.fff]][Z|±HH[:MM]], calendar-checked.
 *
 * validateLogicGraph reports: duplicate question ids and keys, a rule targeting its own source, every
 * elementary cycle of two or more questions (up to MAX_REPORTED_CYCLES), unknown or missing condition
 * types, operators not allowed for the source's input type (see OPERATORS_BY_KIND), missing values
 * (all operators but is_empty/is_not_empty), choice values that match no option id or value, and values
 * that do not fit the source type (non-numeric on NUMBER, unparseable date on DATE, non-boolean on
 * BOOLEAN, non-scalar on text). Questions are named by key, else by quoted text.
 *
 * validateAnswers reports, grouped in this order: malformed entries, answers to questions not in the
 * template, questions answered more than once, answers without a value, value checks (checkAnswerValue),
 * answers (with a value) to hidden questions with the reason, and, with opts.requireRequired, visible
 * required questions without an answer with a value. Visibility is computed from the valid answers only:
 * known question, has a value, passes checkAnswerValue, the first such answer per question.
 * Nothing here throws on malformed input; problems are reported.
 */
export {
  ACTION_TYPES,
  isActionType,
  type ActionType,
  type RuleCondition,
  CONDITION_TYPES,
  CHOICE_VALUE_OPERATORS,
  OPERATORS_BY_KIND,
  isConditionType,
  type AnswerInput,
  type Condition,
  type ConditionType,
  type InputKind,
  type LogicOption,
  type LogicQuestion,
  type LogicRule,
  type LogicTemplate,
} from "./types.ts";
export { hasValue, inputKind, parseIsoDate, selectedOptions, type ParsedDate, type Selection } from "./values.ts";
export { conditionHolds, nodeHolds } from "./conditions.ts";
export { MAX_CONDITION_DEPTH, MAX_CONDITION_LEAVES, parseCondition, type ConditionNode } from "./model.ts";
export { evaluateInspection, maxScoreOf, type InspectionOutcome } from "./outcome.ts";
export { MAX_REPORTED_CYCLES, validateLogicGraph } from "./graph.ts";
export { visibleQuestions } from "./visibility.ts";
export { checkAnswerValue, validateAnswers } from "./answers.ts";
