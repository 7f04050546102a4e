import { useState } from 'react';
import { CONSTRUCTOR_TITLE } from '@stat/schemas/reports';
import { CONSTRUCTOR_TEXTS } from '@stat/schemas/reports';
import { Modal } from '../../components/Modal';
import { Button, TextField } from '../../components/ui';
import { ApiError } from '../../lib/api';

/** What is wrong with a template name (§5: required, 3 to 255 characters), or null. */
function titleProblem(title: string): string | null {
  const trimmed = title.trim();
  if (trimmed === '') return CONSTRUCTOR_TEXTS.titleRequired;
  const length = [...trimmed].length;
  if (length < CONSTRUCTOR_TITLE.min) return CONSTRUCTOR_TEXTS.titleTooShort;
  if (length > CONSTRUCTOR_TITLE.max) return CONSTRUCTOR_TEXTS.titleTooLong;
  return null;
}

/** A title with « (изменён)» appended, cut to the longest name allowed. */
export function modifiedTitle(title: string): string {
  return [...`${title}${CONSTRUCTOR_TEXTS.modifiedSuffix}`].slice(0, CONSTRUCTOR_TITLE.max).join('');
}

/** A dialog asking for a report's name: saving a new one, saving as new, renaming. */
export function TitleModal({
  heading,
  initial,
  submitLabel,
  onSubmit,
  onClose,
}: {
  readonly heading: string;
  readonly initial: string;
  readonly submitLabel: string;
  readonly onSubmit: (title: string) => Promise<void>;
  readonly onClose: () => void;
}) {
  const [title, setTitle] = useState(initial);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const problem = titleProblem(title);
  const submit = async () => {
    setTouched(true);
    if (problem) return;
    setBusy(true);
    setFailure(null);
    try {
      await onSubmit(title.trim());
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : String(error));
      setBusy(false);
    }
  };
  return (
    <Modal
      title={heading}
      onClose={onClose}
      data-testid="template-title-modal"
      footer={
        <>
          <Button onClick={onClose}>Отмена</Button>
          <Button variant="primary" busy={busy} onClick={() => void submit()} data-testid="template-title-submit">
            {submitLabel}
          </Button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField
          label="Название отчёта"
          value={title}
          maxLength={CONSTRUCTOR_TITLE.max + 20}
          onChange={(e) => setTitle(e.target.value)}
          onBlur={() => setTouched(true)}
          error={(touched ? problem : null) ?? failure}
          aside={`Осталось символов: ${Math.max(0, CONSTRUCTOR_TITLE.max - [...title.trim()].length)}`}
          data-testid="template-title-input"
        />
      </form>
    </Modal>
  );
}
