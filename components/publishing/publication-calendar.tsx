"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import {
  type DragEvent,
  Fragment,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { Button, ErrorNotice } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { listPublications, reschedulePublication } from "@/lib/client/operations";
import { brandQueries, queryKeys } from "@/lib/client/queries";
import type { BrandRole } from "@/lib/contracts/enums";
import { can } from "@/lib/contracts/permissions";
import type { PublicationView } from "@/lib/contracts/publishing";
import {
  formatInZone,
  formatTimeInZone,
  onZonedDay,
  zonedDayKey,
  zonedParts,
  zonedToUtc,
} from "@/lib/contracts/time-zone";
import { type FreeSlot, useFreeSlots } from "./calendar-free-slots";
import { PlatformIcon } from "./platform-icon";
import { publicationChannelLabel, STATUS_STYLES, useChannels } from "./publishing-basics";
import { CancelPublicationForm } from "./scheduled-actions";

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
/** On a phone a day shows a dot per post; the list below the grid has them in full. */
const STATUS_DOTS: Record<PublicationView["status"], string> = {
  scheduled: "bg-sky-500",
  held: "bg-violet-500",
  publishing: "bg-amber-500",
  published: "bg-emerald-500",
  failed: "bg-red-500",
  canceled: "bg-slate-400",
};
/**
 * A month day shows its first few posts and "N more" (which opens the day): a busy month is hundreds of
 * chips fewer to draw at once (the list below the grid, on a phone, has them all).
 */
const DAY_CHIPS = 5;
/** The drag's payload type: a publication id. */
const DRAG_TYPE = "application/x-brand-studio-publication";

// Days are YYYY-MM-DD keys of the brand's calendar; the arithmetic runs on UTC midnights, which have no DST.
const keyDate = (key: string) => {
  const [year, month, day] = key.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day));
};
const dateKey = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (key: string, days: number) => {
  const date = keyDate(key);
  date.setUTCDate(date.getUTCDate() + days);
  return dateKey(date);
};
const weekStart = (key: string) => addDays(key, -((keyDate(key).getUTCDay() + 6) % 7));
const dayDiff = (from: string, to: string) =>
  Math.round((keyDate(to).getTime() - keyDate(from).getTime()) / 86_400_000);
const startOfDay = (key: string, timeZone: string) => {
  const [year, month, day] = key.split("-").map(Number);
  return zonedToUtc({ year, month, day, hour: 0, minute: 0 }, timeZone);
};

/** The days the view shows: whole weeks from Monday, the month's or the anchor's. */
function range(view: "month" | "week", anchor: string) {
  if (view === "week") return { start: weekStart(anchor), days: 7 };
  const first = `${anchor.slice(0, 8)}01`;
  const nextMonth = keyDate(first);
  nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
  const last = addDays(dateKey(nextMonth), -1);
  const start = weekStart(first);
  return { start, days: dayDiff(start, weekStart(last)) + 7 };
}

// Made once: making an Intl.DateTimeFormat costs far more than using it (a month titles 35 days per render).
const DAY_LABEL = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  weekday: "long",
  day: "numeric",
  month: "long",
});
const MONTH_TITLE = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", month: "long", year: "numeric" });
const WEEK_TITLE = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  day: "numeric",
  month: "short",
  year: "numeric",
});
const dayLabel = (key: string) => DAY_LABEL.format(keyDate(key));

type Moving = { publication: PublicationView; day: string };
/** A publication as the calendar's list gives it: with its post's name. */
type CalendarPublication = PublicationView & { postName: string };

function CalendarItem({
  publication,
  channelLabel,
  postName,
  language,
  timeZone,
  movable,
  tipToLeft,
  onDragStart,
  onDragEnd,
  onMoveClick,
}: {
  publication: PublicationView;
  /** Where it goes: the connection's name and platform. */
  channelLabel: string;
  /** The post's topic or first words. */
  postName: string;
  /** The language of the channel it goes to (BCP 47), when the brand speaks several. */
  language?: string;
  timeZone: string;
  movable: boolean;
  /** In the week's last columns the tooltip opens leftwards, inside the page. */
  tipToLeft: boolean;
  onDragStart: () => void;
  onDragEnd: () => void;
  onMoveClick: () => void;
}) {
  const time = formatTimeInZone(publication.publishAt, timeZone);
  const tipId = `calendar-tip-${publication.publicationId}`;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drag source; the ⋯ button is the keyboard way.
    <div
      data-testid="calendar-item"
      data-status={publication.status}
      data-publication-id={publication.publicationId}
      draggable={movable}
      onDragStart={(event) => {
        event.dataTransfer.setData(DRAG_TYPE, publication.publicationId);
        event.dataTransfer.setData("text/plain", publication.publicationId);
        event.dataTransfer.effectAllowed = "move";
        onDragStart();
      }}
      onDragEnd={onDragEnd}
      className={`group relative hidden items-start gap-1 rounded px-1.5 py-1 text-xs ring-1 sm:flex ${STATUS_STYLES[publication.status]} ${movable ? "cursor-grab active:cursor-grabbing" : ""}`}
    >
      <Link
        href={`/studio/${publication.postId}`}
        // A month can hold a thousand: no prefetch of each post's studio as it scrolls into view.
        prefetch={false}
        draggable={false}
        aria-describedby={tipId}
        className="min-w-0 flex-1 rounded focus-visible:outline-2 focus-visible:outline-sky-700"
      >
        <span className="flex items-center gap-1">
          <PlatformIcon channel={publication.channel} />
          <span className="whitespace-nowrap tabular-nums">{time}</span>
          <span className="truncate">
            {publication.placement === "story" ? " story" : ""}
            {language ? (
              <>
                {" "}
                <span data-testid="calendar-language" className="font-semibold uppercase">
                  {language}
                </span>
              </>
            ) : null}{" "}
            · {publication.status}
          </span>
        </span>
        <span
          className={`mt-0.5 line-clamp-2 font-medium break-words ${movable ? "pr-5" : ""}`}
          data-testid="calendar-item-post"
        >
          {postName}
        </span>
      </Link>
      {movable && (
        <button
          type="button"
          onClick={onMoveClick}
          aria-label={`Move or cancel the post of ${formatInZone(publication.publishAt, timeZone)}`}
          data-testid="calendar-move"
          // In the corner beside the post's name, so the time and state keep the whole first line.
          className="absolute right-1 bottom-1 rounded px-1 font-semibold leading-none hover:bg-white/70 focus-visible:outline-2 focus-visible:outline-sky-700"
        >
          ⋯
        </button>
      )}
      {/* The whole of it on hover and on keyboard focus (the link points here with aria-describedby). */}
      <span
        id={tipId}
        role="tooltip"
        data-testid="calendar-tooltip"
        className={`pointer-events-none absolute top-full ${tipToLeft ? "right-0" : "left-0"} z-20 mt-1 hidden w-64 rounded-lg bg-slate-900 px-3 py-2 text-xs leading-snug text-white shadow-lg group-focus-within:block group-hover:block`}
      >
        <span className="block font-semibold">{postName}</span>
        <span className="block">
          {channelLabel}
          {publication.placement === "story" ? " story" : ""} · {publication.status} ·{" "}
          {formatInZone(publication.publishAt, timeZone)}
        </span>
        {publication.error && <span className="block">{publication.error.message}</span>}
        {movable && <span className="block text-slate-300">Drag to another day to move it.</span>}
      </span>
    </div>
  );
}

/**
 * The accessible way to move: a date, then Move (the time of day stays, in the brand's zone). It also leads to
 * canceling the publication, after a confirmation.
 */
function MoveForm({
  publication,
  timeZone,
  pending,
  onMove,
  onCancelPublication,
  onClose,
}: {
  publication: PublicationView;
  timeZone: string;
  pending: boolean;
  onMove: (day: string) => void;
  onCancelPublication: () => void;
  onClose: () => void;
}) {
  const [day, setDay] = useState(() => zonedDayKey(new Date(publication.publishAt), timeZone));
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <form
      data-testid="calendar-move-form"
      aria-label="Move or cancel a scheduled post"
      className="flex flex-wrap items-end gap-3 rounded-xl border border-sky-200 bg-sky-50 p-3 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        if (day) onMove(day);
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
    >
      <p className="w-full text-slate-700">
        Move the post of <strong>{formatInZone(publication.publishAt, timeZone)}</strong> to another day; it
        keeps its time of day.
      </p>
      <label className="text-sm">
        <span className="block font-medium text-slate-700">Move to</span>
        <input
          ref={input}
          type="date"
          required
          value={day}
          min={zonedDayKey(new Date(), timeZone)}
          onChange={(event) => setDay(event.target.value)}
          className="mt-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
        />
      </label>
      <Button type="submit" disabled={pending || !day}>
        {pending ? "Moving…" : "Move"}
      </Button>
      <Button variant="secondary" onClick={onClose}>
        Close
      </Button>
      <Button variant="danger" onClick={onCancelPublication} className="sm:ml-auto">
        Cancel publication…
      </Button>
    </form>
  );
}

/** Month rows (weeks) whose chips draw with the month; the rest follow, a row a frame. */
const FIRST_ROWS = 2;
/**
 * How many of the month's rows show their chips: FIRST_ROWS when `grid` (the brand's month, once its posts are
 * there) is new, then one more per frame, each after the frame before is painted. A busy month's first layout
 * and paint of two hundred chips was one long task; a row at a time, each is short, and the rows on screen
 * come first. A refetch or a move keeps the rows drawn.
 */
function useRowsDrawn(grid: string | null, rows: number) {
  const [drawn, setDrawn] = useState({ grid, rows: FIRST_ROWS });
  const current = drawn.grid === grid ? drawn.rows : FIRST_ROWS;
  useEffect(() => {
    if (grid === null || current >= rows) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setDrawn({ grid, rows: current + 1 }), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [grid, current, rows]);
  return current;
}

/** Below Tailwind's `sm` (640 px): the phone layout, whose list of every post the wider grid does not need. */
const NARROW = "(max-width: 639.98px)";
const subscribeNarrow = (onChange: () => void) => {
  const query = window.matchMedia(NARROW);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};
const useNarrow = () =>
  useSyncExternalStore(
    subscribeNarrow,
    () => window.matchMedia(NARROW).matches,
    () => false,
  );

export function PublicationCalendar() {
  const queryClient = useQueryClient();
  // The list below the grid is drawn only where it shows (a month can hold a thousand posts).
  const narrow = useNarrow();
  const brands = useQuery({ ...brandQueries.list(), select: (data) => data.items });
  const [brandId, setBrandId] = useState("");
  const [view, setView] = useState<"month" | "week">("month");
  const [anchorKey, setAnchorKey] = useState<string | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [moving, setMoving] = useState<PublicationView | null>(null);
  const [canceling, setCanceling] = useState<PublicationView | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  /** Month days opened past their first DAY_CHIPS posts. */
  const [openDays, setOpenDays] = useState<ReadonlySet<string>>(new Set());
  const brand = brands.data?.find((item) => item.brandId === brandId) ?? brands.data?.[0];
  const timeZone = brand?.timeZone ?? "UTC";
  const role: BrandRole | undefined = brand?.role;
  const mayMove = role ? can(role, "publication.cancel") : false;
  const today = zonedDayKey(new Date(), timeZone);
  const anchor = anchorKey ?? today;
  const { start, days } = range(view, anchor);
  const from = startOfDay(start, timeZone).toISOString();
  const to = startOfDay(addDays(start, days), timeZone).toISOString();
  const calendarKey = queryKeys.publications.calendar(brand?.brandId ?? "", from, to);
  const channels = useChannels(brand?.brandId ?? null);
  const publications = useQuery({
    queryKey: calendarKey,
    enabled: Boolean(brand),
    refetchInterval: 5000,
    queryFn: async ({ signal }) =>
      (
        await callApi(listPublications, {
          query: { brandId: brand?.brandId ?? "", from, to },
          signal,
        })
      ).data,
  });

  const reschedule = useMutation({
    mutationFn: async ({ publication, day }: Moving) =>
      (
        await callApi(reschedulePublication, {
          params: { publicationId: publication.publicationId },
          body: { publishAt: onZonedDay(new Date(publication.publishAt), day, timeZone).toISOString() },
        })
      ).data,
    onMutate: async ({ publication, day }: Moving) => {
      setMoveError(null);
      await queryClient.cancelQueries({ queryKey: calendarKey });
      const previous = queryClient.getQueryData(calendarKey);
      const publishAt = onZonedDay(new Date(publication.publishAt), day, timeZone).toISOString();
      queryClient.setQueryData<{ items: PublicationView[] }>(
        calendarKey,
        (data) =>
          data && {
            ...data,
            items: data.items.map((item) =>
              item.publicationId === publication.publicationId ? { ...item, publishAt } : item,
            ),
          },
      );
      return { previous };
    },
    onError: (error, _moving, context) => {
      if (context?.previous) queryClient.setQueryData(calendarKey, context.previous);
      setMoveError(`The post was not moved: ${error.message}`);
    },
    onSuccess: () => setMoving(null),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.publications.all }),
  });

  const move = (publication: PublicationView, day: string) => {
    if (zonedDayKey(new Date(publication.publishAt), timeZone) === day) return setMoving(null);
    reschedule.mutate({ publication, day });
  };

  // The month's posts draw in a deferred render, which React splits into short tasks (a query's own update
  // renders in one): the grid and the skeleton stay until they are ready.
  const items = useDeferredValue(publications.data?.items);
  const freeSlots = useFreeSlots({
    channels: channels.data,
    publications: items,
    timeZone,
    from,
    to,
  });
  const freeByDay = new Map<string, FreeSlot[]>();
  for (const slot of freeSlots) freeByDay.set(slot.day, [...(freeByDay.get(slot.day) ?? []), slot]);
  // The posts by day and the hours that have posts, once per list (not on every drag-over or menu).
  const { byDay, postHours } = useMemo(() => {
    const byDay = new Map<string, CalendarPublication[]>();
    const postHours = new Set<number>();
    for (const publication of items ?? []) {
      const at = new Date(publication.publishAt);
      const key = zonedDayKey(at, timeZone);
      const list = byDay.get(key);
      if (list) list.push(publication);
      else byDay.set(key, [publication]);
      postHours.add(zonedParts(at, timeZone).hour);
    }
    return { byDay, postHours: [...postHours] };
  }, [items, timeZone]);
  const channelLanguage = new Map(
    (channels.data ?? []).map((channel) => [channel.channelId, channel.language]),
  );
  const step = (direction: number) => {
    if (view === "week") return setAnchorKey(addDays(anchor, 7 * direction));
    const next = keyDate(`${anchor.slice(0, 8)}01`);
    next.setUTCMonth(next.getUTCMonth() + direction);
    setAnchorKey(dateKey(next));
  };
  const title =
    view === "month" ? MONTH_TITLE.format(keyDate(anchor)) : `Week of ${WEEK_TITLE.format(keyDate(start))}`;
  const findDragged = (event: DragEvent) => {
    const id = event.dataTransfer.getData(DRAG_TYPE) || dragging;
    return publications.data?.items.find((item) => item.publicationId === id);
  };

  // Any cell of a day takes a dragged post: it moves to that day and keeps its time of day.
  const dropTarget = (key: string) => ({
    onDragOver: (event: DragEvent) => {
      if (!dragging) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      if (over !== key) setOver(key);
    },
    onDragLeave: () => setOver((current) => (current === key ? null : current)),
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      const publication = findDragged(event);
      setDragging(null);
      setOver(null);
      if (publication) move(publication, key);
    },
  });
  const dropOutline = (key: string) =>
    dragging !== null && over === key ? "outline-2 -outline-offset-2 outline-sky-500" : "";
  const item = (column: number) => (publication: CalendarPublication) => (
    <CalendarItem
      tipToLeft={column >= 5}
      key={publication.publicationId}
      publication={publication}
      channelLabel={publicationChannelLabel(channels.data, publication)}
      postName={publication.postName}
      language={
        (brand?.languages.length ?? 0) > 1 && publication.channelId
          ? channelLanguage.get(publication.channelId)
          : undefined
      }
      timeZone={timeZone}
      movable={mayMove && publication.status === "scheduled"}
      onDragStart={() => setDragging(publication.publicationId)}
      onDragEnd={() => {
        setDragging(null);
        setOver(null);
      }}
      onMoveClick={() => {
        setMoveError(null);
        setMoving(publication);
      }}
    />
  );
  const rowsDrawn = useRowsDrawn(
    items && view === "month" ? `${brand?.brandId} ${start}` : null,
    Math.ceil(days / 7),
  );
  // The week's hours: 08:00-20:00, widened to any hour that has a post.
  const busyHours = [...postHours, ...freeSlots.map((slot) => slot.hour)];
  const firstHour = Math.min(8, ...busyHours);
  const lastHour = Math.max(20, ...busyHours);
  const loading = items === undefined && !publications.error;
  const hours = Array.from({ length: lastHour - firstHour + 1 }, (_, index) => firstHour + index);

  if (brands.isPending) return <div aria-busy className="h-96 animate-pulse rounded-xl bg-slate-100" />;
  if (brands.error) return <ErrorNotice message={brands.error.message} onRetry={() => brands.refetch()} />;
  if (!brands.data?.length || !brand) {
    return (
      <p className="text-sm text-slate-600">
        No brand yet.{" "}
        <Link href="/brands/new" className="font-medium text-brand-700 underline">
          Create one
        </Link>
        .
      </p>
    );
  }
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Brand</span>
          <select
            value={brand.brandId}
            onChange={(event) => {
              setBrandId(event.target.value);
              setMoving(null);
              setCanceling(null);
            }}
            className="mt-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          >
            {brands.data.map((item) => (
              <option key={item.brandId} value={item.brandId}>
                {item.name}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="flex gap-1">
          <legend className="sr-only">View</legend>
          {(["month", "week"] as const).map((option) => (
            <Button
              key={option}
              variant={view === option ? "primary" : "secondary"}
              aria-pressed={view === option}
              onClick={() => setView(option)}
            >
              {option === "month" ? "Month" : "Week"}
            </Button>
          ))}
        </fieldset>
        <div className="flex items-center gap-1">
          <Button variant="secondary" aria-label="Previous" onClick={() => step(-1)}>
            ←
          </Button>
          <Button variant="secondary" onClick={() => setAnchorKey(null)}>
            Today
          </Button>
          <Button variant="secondary" aria-label="Next" onClick={() => step(1)}>
            →
          </Button>
        </div>
        <div>
          <h2 className="text-lg font-semibold" data-testid="calendar-title">
            {title}
          </h2>
          <p className="text-xs text-slate-600" data-testid="calendar-zone">
            Times in {timeZone}
            {mayMove && (
              <>
                <span className="hidden sm:inline">
                  {" "}
                  · drag a scheduled post to another day; its ⋯ button moves or cancels it
                </span>
                <span className="sm:hidden">
                  {" "}
                  · move or cancel a scheduled post with Move… in the list below
                </span>
              </>
            )}
          </p>
        </div>
      </div>
      {publications.error && (
        <ErrorNotice message={publications.error.message} onRetry={() => publications.refetch()} />
      )}
      {moveError && (
        <div data-testid="calendar-move-error">
          <ErrorNotice message={moveError} />
        </div>
      )}
      {moving && (
        <MoveForm
          key={moving.publicationId}
          publication={moving}
          timeZone={timeZone}
          pending={reschedule.isPending}
          onMove={(day) => move(moving, day)}
          onCancelPublication={() => {
            setCanceling(moving);
            setMoving(null);
          }}
          onClose={() => setMoving(null)}
        />
      )}
      {canceling && (
        <div className="text-sm">
          <CancelPublicationForm
            key={canceling.publicationId}
            publication={canceling}
            channelLabel={publicationChannelLabel(channels.data, canceling)}
            timeZone={timeZone}
            onDone={() => {
              setCanceling(null);
              void queryClient.invalidateQueries({ queryKey: queryKeys.publications.all });
            }}
            onKeep={() => setCanceling(null)}
          />
        </div>
      )}
      {items && items.length === 0 && (
        <p className="text-sm text-slate-600" data-testid="calendar-empty">
          Nothing scheduled or published in this {view}. Publish a post from the studio.
        </p>
      )}
      {freeSlots.length > 0 && (
        <p className="text-xs text-slate-600" data-testid="calendar-free-legend">
          <span
            className="mr-1 inline-block size-2 rounded-full ring-1 ring-slate-400 ring-inset"
            aria-hidden
          />
          {freeSlots.length} free slot{freeSlots.length === 1 ? "" : "s"} of the channels' posting schedules
          in this {view}: Add to queue in the studio fills the next one.
        </p>
      )}
      {/* A phone gets the whole week in its width (dots per day, the posts in the list below); wider screens the posts themselves. */}
      <div className={view === "week" ? "sm:hidden" : "sm:max-lg:overflow-x-auto"}>
        <div className="grid grid-cols-7 gap-px rounded-xl border border-slate-200 bg-slate-200 sm:min-w-[42rem]">
          {WEEKDAYS.map((day) => (
            <div key={day} className="bg-slate-50 px-1 py-1 text-xs font-semibold text-slate-600 sm:px-2">
              {day}
            </div>
          ))}
          {Array.from({ length: days }, (_, index) => {
            const key = addDays(start, index);
            const items = byDay.get(key) ?? [];
            const outside = view === "month" && key.slice(0, 7) !== anchor.slice(0, 7);
            const chips = view === "month" && !narrow && Math.floor(index / 7) < rowsDrawn;
            return (
              <div
                key={key}
                data-testid={view === "month" ? "calendar-day" : undefined}
                data-day={key}
                {...dropTarget(key)}
                className={`min-h-14 space-y-1 p-1 sm:min-h-24 sm:p-1.5 ${outside ? "bg-slate-50 text-slate-500" : "bg-white"} ${dropOutline(key)}`}
              >
                <div
                  className={`text-xs font-medium ${key === today ? "inline-block rounded-full bg-brand-600 px-1.5 text-white" : ""}`}
                  title={dayLabel(key)}
                >
                  {Number(key.slice(8))}
                </div>
                {loading && index === 0 && <div className="h-4 animate-pulse rounded bg-slate-100" />}
                {/* A phone's dots and a wider screen's chips: each drawn only at its width (a month of a
                    thousand posts is a thousand dots or two hundred chips nobody sees at the other). */}
                {narrow && (items.length > 0 || freeByDay.has(key)) && (
                  <div className="flex flex-wrap gap-1 sm:hidden" aria-hidden>
                    {items.map((publication) => (
                      <span
                        key={publication.publicationId}
                        className={`size-2 rounded-full ${STATUS_DOTS[publication.status]}`}
                      />
                    ))}
                    {(freeByDay.get(key) ?? []).map((slot) => (
                      <span key={slot.key} className="size-2 rounded-full ring-1 ring-slate-400 ring-inset" />
                    ))}
                  </div>
                )}
                {chips && (openDays.has(key) ? items : items.slice(0, DAY_CHIPS)).map(item(index % 7))}
                {chips && items.length > DAY_CHIPS && !openDays.has(key) && (
                  <button
                    type="button"
                    data-testid="calendar-more"
                    data-count={items.length - DAY_CHIPS}
                    onClick={() => setOpenDays((days) => new Set(days).add(key))}
                    className="hidden rounded px-1.5 text-xs font-medium text-slate-700 underline hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-700 sm:block"
                  >
                    {items.length - DAY_CHIPS} more
                  </button>
                )}
                {view === "month" && (freeByDay.get(key) ?? []).map(freeSlotChip)}
              </div>
            );
          })}
        </div>
      </div>
      {view === "week" && (
        // The week on a time axis in the brand's zone: an hour a row, from 08:00 to 20:00 and any hour with a post.
        <div className="hidden sm:max-lg:overflow-x-auto sm:block" data-testid="calendar-week">
          <div className="grid grid-cols-[3.5rem_repeat(7,minmax(0,1fr))] gap-px rounded-xl border border-slate-200 bg-slate-200 sm:min-w-[42rem]">
            <div className="bg-slate-50 px-1 py-1 text-xs text-slate-600">
              {timeZone.split("/").at(-1)?.replaceAll("_", " ")}
            </div>
            {Array.from({ length: 7 }, (_, index) => {
              const key = addDays(start, index);
              return (
                <div
                  key={key}
                  className="bg-slate-50 px-2 py-1 text-xs font-semibold text-slate-600"
                  data-testid="calendar-week-day"
                >
                  {WEEKDAYS[index]}{" "}
                  <span
                    className={key === today ? "rounded-full bg-brand-600 px-1.5 text-white" : "font-medium"}
                    title={dayLabel(key)}
                  >
                    {Number(key.slice(8))}
                  </span>
                </div>
              );
            })}
            {hours.map((hour) => (
              <Fragment key={hour}>
                <div
                  className="bg-white px-1 py-1 text-right text-xs tabular-nums text-slate-600"
                  data-testid="calendar-hour"
                >
                  {`${String(hour).padStart(2, "0")}:00`}
                </div>
                {Array.from({ length: 7 }, (_, index) => {
                  const key = addDays(start, index);
                  const items = (byDay.get(key) ?? []).filter(
                    (publication) => zonedParts(new Date(publication.publishAt), timeZone).hour === hour,
                  );
                  return (
                    <div
                      key={key}
                      data-testid="calendar-slot"
                      data-day={key}
                      data-hour={hour}
                      {...dropTarget(key)}
                      className={`min-h-12 space-y-1 p-1 ${key === today ? "bg-brand-50/40" : "bg-white"} ${dropOutline(key)}`}
                    >
                      {loading && index === 0 && hour === firstHour && (
                        <div className="h-4 animate-pulse rounded bg-slate-100" />
                      )}
                      {items.map(item(index))}
                      {(freeByDay.get(key) ?? []).filter((slot) => slot.hour === hour).map(freeSlotChip)}
                    </div>
                  );
                })}
              </Fragment>
            ))}
          </div>
        </div>
      )}
      {narrow && items && items.length > 0 && (
        // On a phone the grid scrolls sideways and drag and drop does not work by touch: the same posts as a list.
        <section aria-labelledby="calendar-agenda-title" className="space-y-2 sm:hidden">
          <h3 id="calendar-agenda-title" className="text-sm font-semibold text-slate-700">
            This {view}, as a list
          </h3>
          <ul className="space-y-1.5">
            {[...byDay.entries()]
              .sort(([a], [b]) => a.localeCompare(b))
              .flatMap(([, items]) => items)
              .map((publication) => (
                <li
                  key={publication.publicationId}
                  data-testid="calendar-agenda-item"
                  className={`flex items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ${STATUS_STYLES[publication.status]}`}
                >
                  <Link href={`/studio/${publication.postId}`} prefetch={false} className="min-w-0 flex-1">
                    <span className="block">
                      {formatInZone(publication.publishAt, timeZone, { zone: false })}
                    </span>
                    <span className="block truncate text-xs">
                      {publicationChannelLabel(channels.data, publication)} · {publication.status}
                    </span>
                    <span className="block truncate text-xs font-medium">{publication.postName}</span>
                  </Link>
                  {mayMove && publication.status === "scheduled" && (
                    <button
                      type="button"
                      onClick={() => {
                        setMoveError(null);
                        setMoving(publication);
                        window.scrollTo({ top: 0, behavior: "smooth" });
                      }}
                      aria-label={`Move or cancel the post of ${formatInZone(publication.publishAt, timeZone)}`}
                      className="shrink-0 rounded px-2 py-0.5 font-medium underline"
                    >
                      Move…
                    </button>
                  )}
                </li>
              ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** An empty slot of a channel's posting schedule: a dashed chip with its time and channel. */
function freeSlotChip(slot: FreeSlot) {
  return (
    <div
      key={slot.key}
      data-testid="calendar-free-slot"
      data-channel={slot.channelId}
      title={`Free slot: ${slot.label}`}
      className="hidden truncate rounded border border-dashed border-slate-300 px-1 text-xs text-slate-500 sm:block"
    >
      {slot.time} free · {slot.channelName}
    </div>
  );
}
