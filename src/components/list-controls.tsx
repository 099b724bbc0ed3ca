import { useEffect, useRef, useState } from 'react';
import { PER_PAGE_OPTIONS } from './paginator.tsx';

interface SearchInputProps {
  label: string;
  value: string;
  /** Called with the settled text, a moment after typing stops. */
  onSearch: (value: string) => void;
  placeholder?: string;
  delayMs?: number;
}

/** A text filter that keeps a draft while typing and applies it once typing pauses. */
export function SearchInput({ label, value, onSearch, placeholder, delayMs = 300 }: SearchInputProps) {
  const [draft, setDraft] = useState(value);
  const applied = useRef(value);
  useEffect(() => {
    // the URL changed from elsewhere (back button, a link): show it
    if (value !== applied.current) {
      applied.current = value;
      setDraft(value);
    }
  }, [value]);
  useEffect(() => {
    if (draft === applied.current) return;
    const timer = setTimeout(() => {
      applied.current = draft;
      onSearch(draft);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [draft, delayMs, onSearch]);
  // the label stays visible: a placeholder alone vanishes once typed over and is no label
  return (
    <label className="inline-field">
      <span>{label}</span>
      <input
        type="search"
        className="input input--search"
        placeholder={placeholder}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            applied.current = draft;
            onSearch(draft);
          }
        }}
      />
    </label>
  );
}

export function PerPageSelect({ value, onChange }: { value: number; onChange: (perPage: number) => void }) {
  return (
    <label className="inline-field">
      <span>Per page</span>
      <select className="input" value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {PER_PAGE_OPTIONS.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

interface SortControlsProps<Order extends string> {
  orders: ReadonlyArray<{ value: Order; label: string }>;
  orderBy: Order;
  sort: 'asc' | 'desc';
  onChange: (change: { order_by?: Order; sort?: 'asc' | 'desc' }) => void;
}

/** A list's order as the API takes it: the field (`order_by`) and the direction (`sort`). */
export function SortControls<Order extends string>({ orders, orderBy, sort, onChange }: SortControlsProps<Order>) {
  return (
    <>
      <label className="inline-field">
        <span>Sort by</span>
        <select className="input" value={orderBy} onChange={(event) => onChange({ order_by: event.target.value as Order })}>
          {orders.map((order) => (
            <option key={order.value} value={order.value}>
              {order.label}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>Direction</span>
        <select className="input" value={sort} onChange={(event) => onChange({ sort: event.target.value as 'asc' | 'desc' })}>
          <option value="asc">Ascending</option>
          <option value="desc">Descending</option>
        </select>
      </label>
    </>
  );
}
