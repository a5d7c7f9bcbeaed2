import { Link } from '../components/ui.tsx';

/** One sentence for empty lists: where test leads go and why. */
export const TEST_MODE_SENTENCE =
  'Leads sent from development hosts (localhost, *.test, private addresses) are test data and are hidden here unless you show them.';

/**
 * "12 test leads from development hosts are hidden — show them": a firm trying its widget on
 * localhost sees that its leads arrived, and one click shows them. Nothing when none are hidden.
 */
export function TestLeadsNotice(props: { hidden: number; href: string }) {
  if (props.hidden <= 0) return null;
  const one = props.hidden === 1;
  return (
    <p class="notice test-leads-notice" role="status">
      <span>
        {props.hidden.toLocaleString('en-US')} {one ? 'test lead' : 'test leads'} from development hosts{' '}
        {one ? 'is' : 'are'} hidden — <Link href={props.href}>{one ? 'show it' : 'show them'}</Link>
      </span>
    </p>
  );
}
