import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Modal } from '../components/Modal';
import { SiteIcon } from '../components/SiteIcon';
import { Badge, Button, Spinner, TextInput } from '../components/ui';
import { projectTitle } from '../lib/format';
import { calls } from '../data/calls';
import { DELAYS, useDebounced, useRequest } from '../lib/hooks';
import { ICONS } from './icons';
import { switchProjectPath } from './menu';
import styles from './ProjectSwitcher.module.css';

/** The search box appears from this many loaded projects (spec 000 §2.4, §9). */
const SWITCHER_SEARCH_FROM = 10;

/**
 * The switcher «Мои сайты» (spec 000 §2.4): up to 100 of the user's projects, the current one
 * marked «Текущий», the others with «Переключиться», which keeps the section and swaps the id.
 * The search «Введите название сайта» appears with 10 or more projects, or once a search was used.
 */
export default function ProjectSwitcher({ currentId, onClose }: { readonly currentId: number; readonly onClose: () => void }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [search, setSearch] = useState('');
  const [searched, setSearched] = useState(false);
  const query = useDebounced(search.trim(), DELAYS.inputSearch);
  const list = useRequest(`switcher:${query}`, (signal) => calls.linkedProjects(query, { signal }));
  const rows = list.data?.data ?? [];
  const showSearch = searched || query !== '' || rows.length >= SWITCHER_SEARCH_FROM;

  const go = (id: number) => {
    onClose();
    void navigate(switchProjectPath(location.pathname, location.search, id));
  };

  return (
    <Modal title="Мои сайты" onClose={onClose} width={640} data-testid="switcher">
      {showSearch ? (
        <div className={styles.search}>
          <span className={styles.searchIcon}>{ICONS.search}</span>
          <TextInput
            type="search"
            placeholder="Введите название сайта"
            value={search}
            maxLength={100}
            onChange={(e) => {
              setSearch(e.target.value);
              setSearched(true);
            }}
            data-testid="switcher-search"
          />
        </div>
      ) : null}
      <div className={styles.list} aria-busy={list.loading}>
        {list.loading && rows.length === 0 ? (
          <div className={styles.loading}>
            <Spinner label="Загрузка" />
          </div>
        ) : rows.length === 0 ? (
          <p className={styles.empty}>{query ? 'По вашему запросу ничего не найдено' : 'Нет сайтов'}</p>
        ) : (
          rows.map((p) => (
            <div key={p.id} className={styles.row} data-testid="switcher-row" data-project-id={p.id}>
              <SiteIcon favicon={p.favicon} size={20} />
              <div className={styles.info}>
                <div className={styles.title} data-testid="switcher-title">
                  {projectTitle(p.title)}
                </div>
                <div className={styles.meta}>
                  <a href={p.url} target="_blank" rel="noopener noreferrer">
                    {p.url.replace(/^https?:\/\//, '')}
                  </a>
                  <span>Счётчик {p.id}</span>
                </div>
              </div>
              {p.id === currentId ? (
                <Badge tone="accent">Текущий</Badge>
              ) : (
                <Button size="s" onClick={() => go(p.id)}>
                  Переключиться
                </Button>
              )}
            </div>
          ))
        )}
      </div>
    </Modal>
  );
}
