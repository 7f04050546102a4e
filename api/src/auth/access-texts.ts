// The texts of the access decisions: the guard's, and ProjectAccess.viewable's for a project named in a body or a query.
export const LOGIN_REQUIRED = 'Требуется вход';
export const FORBIDDEN = 'Доступ запрещен';
export const PROJECT_NOT_FOUND = 'Счётчик не найден';
