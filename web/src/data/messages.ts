/** Messages of spec 000 §8, character for character. */

/** A generic failure of saving settings. */
export const SAVE_FAILED = 'Произошла ошибка при запросе на сервер.';

/** A generic failure on the access page (no final period there). */
export const ACCESS_FAILED = 'Произошла ошибка при запросе на сервер';

/** The api's text of the 20-a-day limit on granting access. */
export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded';

/** What the 20-a-day limit shows (followed by the support e-mail link). */
export const RATE_LIMIT_TEXT =
  'В день вы можете добавить не более 20 пользователей. Чтобы дать доступ большему числу людей, вернитесь завтра или обратитесь в службу поддержки.';

/** The api's text of an unexpected failure. */
export const SERVER_OOPS = 'Oops... Something went terribly wrong.';

/** Success snackbars (spec 000 §8). */
export const SNACKS = {
  deleted: 'Счётчик удален',
  restored: 'Счётчик восстановлен',
  codeCopied: 'Код скопирован',
  saved: 'Изменения сохранены',
  granted: 'Доступ выдан',
  changed: 'Права доступа изменены',
  declined: 'Запрос на доступ отклонен',
  idCopied: 'Id проекта скопирован',
} as const;

/** A report call that failed on the server (spec 001 §8: the server's «Oops…» message shows this). */
export const REPORT_FAILED = 'Произошла ошибка при запросе на сервер';

/** The snackbar once a report's data for another «Детализация» has come (spec 001 §8: "after grouping change"). */
export const REGROUPED = 'Данные пересчитаны';
