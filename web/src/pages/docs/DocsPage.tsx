import { useParams } from 'react-router-dom';
import { ErrorPage } from '../ErrorPage';
import { DOC_PAGES } from './content';
import styles from './DocsPage.module.css';
import { PageTitle } from '../../app/PageTitle';

/** A page of /stat/docs (the footer's links, spec 000 §2.2); an unknown one is a 404. */
export default function DocsPage() {
  const slug = useParams()['*'] ?? '';
  const doc = DOC_PAGES.find((p) => p.slug === slug.replace(/\/$/, ''));
  if (!doc) return <ErrorPage status={404} />;
  const Body = doc.body;
  return (
    <article className={styles.page} data-testid="doc-page" data-slug={doc.slug}>
      <PageTitle text={`${doc.title} – Статистика`} />
      <h1 className={styles.title}>{doc.title}</h1>
      <div className={styles.body}>
        <Body />
      </div>
    </article>
  );
}
