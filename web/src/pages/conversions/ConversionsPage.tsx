import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { CONVERSION_LIST_SAMPLE, type Conversion, type ConversionFigures } from '@stat/schemas/conversions';
import { refusalText, useProject } from '../../app/project';
import { useUser } from '../../app/session';
import { useSnackbar } from '../../app/Snackbar';
import { Dropdown } from '../../components/Dropdown';
import { ConfirmDialog } from '../../components/Modal';
import { Badge, Button, DisabledReason, PageHeader, Spinner, Switch, TextInput } from '../../components/ui';
import { calls, type ConversionBody } from '../../data/calls';
import { formatInteger } from '../../lib/format';
import { DELAYS, useDebounced, useRequest } from '../../lib/hooks';
import type { Period } from '../../lib/period';
import { usePagePeriod } from '../../reports/framework/hooks';
import { PeriodPicker } from '../../reports/framework/Toolbar';
import { CardGraph } from './CardGraph';
import { ConversionForm } from './ConversionForm';
import { cardActions, CONVERSION_PAGE_TEXTS as T, conversionFailure, conversionRights, conversionText, readShowCommon, withPeriod, writeShowCommon, type DateSpan } from './conversionState';
import styles from './Conversions.module.css';
import { ProjectPageTitle } from '../../app/ProjectPageTitle';

/** Spec 002 §2: «show more» adds 10 cards. */
const PAGE = 10;

/**
 * «Конверсии» (spec 002 §2 "Conversions list"): search, «Новая конверсия», the switch of public
 * ones kept per user, cards with the value over the period, the favourite star, the access badge,
 * the card's menu (change, make public, delete), ConversionForm, snackbars.
 */
export default function ConversionsPage() {
  const { project } = useProject();
  const projectId = String(project.id);
  const user = useUser();
  const snackbar = useSnackbar();
  const dates = usePagePeriod();
  const canEdit = project.permissions.can_edit_project;
  const rights = conversionRights(projectId, user !== null, canEdit);
  const [search, setSearch] = useState('');
  const settled = useDebounced(search, DELAYS.tableSearch);
  const [showCommon, setShowCommon] = useState(() => readShowCommon(user?.id ?? 0, projectId));
  const [limit, setLimit] = useState(PAGE);
  const [form, setForm] = useState<{ conversion: Conversion | null } | null>(null);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ conversion: Conversion; busy: boolean } | null>(null);
  const span: DateSpan | null = dates?.period ?? null;

  useEffect(() => setShowCommon(readShowCommon(user?.id ?? 0, projectId)), [user?.id, projectId]);
  useEffect(() => setLimit(PAGE), [settled, showCommon, projectId]);
  const list = useRequest(`conversions:${projectId}:${settled}:${showCommon}:${limit}`, (signal) => calls.conversions(projectId, { search: settled, showCommon, limit, offset: 0 }, { signal }));
  const conversions = useMemo(() => list.data?.conversions ?? [], [list.data]);
  const ids = conversions.map((c) => c.id).join(',');
  const figures = useRequest(span && ids ? `conversion-figures:${projectId}:${span.start}:${span.end}:${ids}` : null, (signal) =>
    span
      ? calls.conversionFigures(projectId, { date_start: span.start, date_end: span.end, conversion_ids: conversions.map((c) => c.id), sample: CONVERSION_LIST_SAMPLE }, { signal })
      : Promise.resolve({ conversions: [], sample: CONVERSION_LIST_SAMPLE }),
  );
  const figuresOf = useMemo(() => new Map((figures.data?.conversions ?? []).map((f) => [f.id, f])), [figures.data]);
  const total = list.data?.totals ?? 0;

  const toggleCommon = (on: boolean) => {
    setShowCommon(on);
    writeShowCommon(user?.id ?? 0, on);
  };
  const save = useCallback(
    async (body: ConversionBody) => {
      if (!form) return;
      setSaving(true);
      setFormError(null);
      try {
        if (form.conversion) {
          await calls.updateConversion(form.conversion.id, body);
          snackbar(T.updated);
        } else {
          await calls.createConversion({ project_id: Number(projectId), ...body });
          snackbar(T.created);
        }
        setForm(null);
        list.reload();
      } catch (error) {
        setFormError(conversionFailure(error));
      } finally {
        setSaving(false);
      }
    },
    [form, projectId, snackbar, list],
  );
  const change = async (conversion: Conversion, body: Partial<ConversionBody>, done?: string) => {
    try {
      await calls.updateConversion(conversion.id, body);
      if (done) snackbar(done);
      list.reload();
    } catch (error) {
      snackbar(conversionFailure(error));
    }
  };
  const remove = async () => {
    if (!removing) return;
    setRemoving({ ...removing, busy: true });
    try {
      await calls.deleteConversion(removing.conversion.id);
      snackbar(T.deleted);
      list.reload();
    } catch (error) {
      snackbar(conversionFailure(error));
    } finally {
      setRemoving(null);
    }
  };

  return (
    <div className={styles.page} data-testid="conversions-page">
      <ProjectPageTitle title={T.pageTitle} />
      <PageHeader
        title={T.pageTitle}
        actions={
          <DisabledReason reason={rights.refusal === null ? null : refusalText(rights.refusal, 'конверсии')}>
            <Button variant="primary" disabled={!rights.write} onClick={() => setForm({ conversion: null })} data-testid="conversion-new">
              {T.create}
            </Button>
          </DisabledReason>
        }
      />
      <div className={styles.toolbar}>
        {dates ? <PeriodPicker period={dates.period} today={dates.today} onChange={dates.setDates} projectId={projectId} /> : null}
        <TextInput type="search" className={styles.search} placeholder={T.search} aria-label={T.search} value={search} onChange={(e) => setSearch(e.target.value)} data-testid="conversion-search" />
        <Switch checked={showCommon} onChange={toggleCommon} data-testid="conversion-show-common">
          {T.showCommon}
        </Switch>
        {list.loading || figures.loading ? <Spinner size={16} label="Загрузка" /> : null}
      </div>
      {conversions.length === 0 && !list.loading ? (
        <div className={styles.empty} data-testid="conversions-empty">
          {T.empty}
        </div>
      ) : null}
      <div className={styles.cards}>
        {conversions.map((conversion) => (
          <ConversionCard
            key={conversion.id}
            projectId={projectId}
            conversion={conversion}
            figures={figuresOf.get(conversion.id)}
            span={span}
            period={dates?.period ?? null}
            actions={cardActions(conversion, rights.write, canEdit)}
            menu={!rights.demo || rights.write}
            canStar={user !== null}
            onStar={() => void change(conversion, { is_favorite: !conversion.is_favorite })}
            onEdit={() => setForm({ conversion })}
            onMakePublic={() => void change(conversion, { access: 'common' }, T.madePublic)}
            onRemove={() => setRemoving({ conversion, busy: false })}
          />
        ))}
      </div>
      {total > conversions.length ? (
        <Button variant="link" onClick={() => setLimit((l) => l + PAGE)} data-testid="conversions-more">
          {T.showMore}
        </Button>
      ) : null}
      {form ? (
        <ConversionForm
          projectId={projectId}
          conversion={form.conversion}
          busy={saving}
          error={formError}
          onSave={(body) => void save(body)}
          onCancel={() => {
            setForm(null);
            setFormError(null);
          }}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog title={T.removeTitle} confirmLabel={T.remove} danger busy={removing.busy} onConfirm={() => void remove()} onCancel={() => setRemoving(null)}>
          «{removing.conversion.title}»
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

interface CardProps {
  readonly projectId: string;
  readonly conversion: Conversion;
  readonly figures: ConversionFigures | undefined;
  readonly span: DateSpan | null;
  /** The list's period, passed on to the conversion's page. */
  readonly period: Pick<Period, 'dateStart' | 'dateEnd'> | null;
  readonly actions: { edit: boolean; makePublic: boolean; remove: boolean };
  readonly menu: boolean;
  readonly canStar: boolean;
  readonly onStar: () => void;
  readonly onEdit: () => void;
  readonly onMakePublic: () => void;
  readonly onRemove: () => void;
}

/** A conversion's card: star, title link, menu, owner, access, description, the value and both goals' totals. */
function ConversionCard({ projectId, conversion, figures, span, period, actions, menu, canStar, onStar, onEdit, onMakePublic, onRemove }: CardProps) {
  const items = [
    ...(actions.edit ? [{ label: T.edit, onSelect: onEdit, 'data-testid': 'conversion-edit' }] : []),
    ...(actions.makePublic ? [{ label: T.makePublic, onSelect: onMakePublic, 'data-testid': 'conversion-make-public' }] : []),
    ...(actions.remove ? [{ label: T.remove, danger: true, onSelect: onRemove, 'data-testid': 'conversion-remove' }] : []),
  ];
  return (
    <article className={styles.card} data-testid="conversion-card" data-id={conversion.id}>
      <div className={styles.cardHead}>
        <button
          type="button"
          className={conversion.is_favorite ? `${styles.star} ${styles.starOn}` : styles.star}
          aria-pressed={conversion.is_favorite}
          aria-label={conversion.is_favorite ? T.unfavorite : T.favorite}
          title={conversion.is_favorite ? T.unfavorite : T.favorite}
          disabled={!canStar}
          onClick={onStar}
          data-testid="conversion-star"
        >
          {conversion.is_favorite ? '★' : '☆'}
        </button>
        <Link className={styles.cardTitle} to={withPeriod(`/stat/projects/${projectId}/conversions/${conversion.id}`, period)} data-testid="conversion-card-title">
          {conversion.title}
        </Link>
        {menu && items.length > 0 ? <Dropdown trigger="⋯" label={T.actions} data-testid="conversion-actions" items={items} /> : null}
      </div>
      <div className={styles.badges}>
        <Badge tone={conversion.access === 'common' ? 'accent' : 'neutral'}>{conversion.access === 'common' ? T.accessCommon : T.accessOwn}</Badge>
        {conversion.email ? <span className={styles.muted}>{conversion.email.email}</span> : null}
      </div>
      {conversion.description ? <div className={styles.muted}>{conversion.description}</div> : null}
      <div className={styles.value} data-testid="conversion-value">
        {figures ? conversionText(figures.conversion) : '…'}
      </div>
      <div className={styles.legend}>
        <span>
          {T.numerator}: <b data-testid="conversion-numerator-total">{figures ? formatInteger(figures.numerator.totals) : '…'}</b>
        </span>
        <span>
          {T.denominator}: <b data-testid="conversion-denominator-total">{figures ? formatInteger(figures.denominator.totals) : '…'}</b>
        </span>
      </div>
      {figures && span ? <CardGraph figures={figures} span={span} /> : null}
    </article>
  );
}
