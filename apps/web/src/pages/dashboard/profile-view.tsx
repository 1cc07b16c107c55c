import { PROFILE_PICTURE_TYPES, type TUserProfile } from '@agentloom/contracts';
import { CalendarDays, FileText, Mail, Pencil, Phone, UserRound } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import {
  Alert,
  Button,
  CancelAndSubmit,
  Card,
  Spinner,
  TextArea,
  TextField,
} from '../../components/ui';
import { API_URL, errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { BackToDashboard, VIEW_TITLE_ID, ViewHeader } from './back-button';
import { formatKeyDate } from './api-key-format';
import { useProfile, useUpdateProfile } from './dashboard-api';

/** The picture is served by the backend host plus profile_picture_url. */
export function profilePictureSrc(url: string | null | undefined): string | null {
  if (!url) return null;
  return /^https?:\/\//.test(url) ? url : `${API_URL}${url.startsWith('/') ? '' : '/'}${url}`;
}

function Avatar({ profile, size = 'lg' }: { profile: TUserProfile; size?: 'lg' | 'xl' }) {
  const src = profilePictureSrc(profile.profile_picture_url);
  const box = size === 'xl' ? 'h-28 w-28 text-3xl' : 'h-20 w-20 text-2xl';
  if (src) {
    return (
      <img
        src={src}
        alt={`Profile picture of ${profile.full_name ?? profile.username}`}
        className={`${box} shrink-0 rounded-full object-cover ring-4 ring-indigo-100 dark:ring-indigo-950`}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`${box} grid shrink-0 place-items-center rounded-full bg-gradient-to-br from-indigo-600 to-fuchsia-600 font-bold text-white`}
    >
      {(profile.full_name ?? profile.username).slice(0, 1).toUpperCase()}
    </span>
  );
}

function Detail({ icon: Icon, label, value }: { icon: typeof Mail; label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-2 text-xs font-medium tracking-wide text-slate-600 uppercase dark:text-slate-400">
        <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
        {label}
      </dt>
      <dd className="mt-1 pl-6 break-words text-slate-900 dark:text-slate-100">{value}</dd>
    </div>
  );
}

/** docs/product.md#the-dashboard-profile: view mode, edit mode with a picture upload. */
export function ProfileView({ onBack }: { onBack: () => void }) {
  const profile = useProfile();
  const [editing, setEditing] = useState(false);
  /** Opens the editor; focus returns to it when the editor closes. */
  const editButton = useRef<HTMLButtonElement>(null);

  // A failed load is announced with this toast; the text in the view below only explains
  // the empty view, so it is not a second alert.
  useEffect(() => {
    if (profile.isError) notify.error('Error', 'Failed to fetch profile info');
  }, [profile.isError]);

  // Switching mode unmounts the focused button (Edit Profile, or Save/Cancel); the state is
  // committed first so focus can land on what replaced it rather than on <body>.
  function startEditing() {
    flushSync(() => setEditing(true));
    document.getElementById(VIEW_TITLE_ID)?.focus();
  }
  function finishEditing() {
    flushSync(() => setEditing(false));
    editButton.current?.focus();
  }

  return (
    <section aria-labelledby={VIEW_TITLE_ID}>
      <BackToDashboard onBack={onBack} />
      {editing && profile.isSuccess ? (
        <ProfileEditor profile={profile.data} onDone={finishEditing} />
      ) : (
        <>
          {/* Rendered while loading too, so a view switch always has a heading to focus. */}
          <ViewHeader
            title="Profile"
            actions={
              profile.isSuccess && (
                <Button ref={editButton} onClick={startEditing}>
                  <Pencil aria-hidden="true" className="h-4 w-4" />
                  Edit Profile
                </Button>
              )
            }
          />
          {profile.isPending ? (
            <div className="grid min-h-48 place-items-center text-indigo-600 dark:text-indigo-400">
              <Spinner size="lg" label="Loading profile…" />
            </div>
          ) : profile.isError ? (
            <Card className="flex flex-col items-center gap-3 py-12 text-center">
              <p className="text-slate-700 dark:text-slate-300">Failed to fetch profile info</p>
              <Button
                variant="outline"
                onClick={() => void profile.refetch()}
                loading={profile.isFetching}
              >
                Try again
              </Button>
            </Card>
          ) : (
            <ProfileDetails profile={profile.data} />
          )}
        </>
      )}
    </section>
  );
}

function ProfileDetails({ profile }: { profile: TUserProfile }) {
  return (
    <Card className="flex flex-col gap-8 md:flex-row">
      <div className="flex flex-col items-center gap-3 text-center md:w-56">
        <Avatar profile={profile} size="xl" />
        <div>
          <p className="text-xl font-semibold text-slate-900 dark:text-white">
            {profile.full_name || profile.username}
          </p>
          <p className="text-sm text-slate-600 dark:text-slate-300">@{profile.username}</p>
        </div>
      </div>
      <dl className="grid flex-1 gap-5 sm:grid-cols-2">
        <Detail icon={UserRound} label="Full name" value={profile.full_name || '—'} />
        <Detail icon={UserRound} label="Username" value={profile.username} />
        <Detail icon={Mail} label="Email" value={profile.email} />
        <Detail icon={Phone} label="Phone number" value={profile.phone_number || '—'} />
        <Detail icon={CalendarDays} label="Joined" value={formatKeyDate(profile.created_at)} />
        <div className="sm:col-span-2">
          <dt className="flex items-center gap-2 text-xs font-medium tracking-wide text-slate-600 uppercase dark:text-slate-400">
            <FileText aria-hidden="true" className="h-4 w-4 shrink-0" />
            Bio
          </dt>
          <dd className="mt-1 pl-6 whitespace-pre-line text-slate-900 dark:text-slate-100">
            {profile.bio || 'No bio yet.'}
          </dd>
        </div>
      </dl>
    </Card>
  );
}

function ProfileEditor({ profile, onDone }: { profile: TUserProfile; onDone: () => void }) {
  const update = useUpdateProfile();
  const [form, setForm] = useState({
    full_name: profile.full_name ?? '',
    phone_number: profile.phone_number ?? '',
    bio: profile.bio ?? '',
  });
  const [file, setFile] = useState<File | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(
      { ...form, file },
      {
        onSuccess: () => {
          notify.success('Updated', 'Profile updated successfully');
          onDone();
        },
        onError: () => notify.error('Update Failed', 'Could not save your changes'),
      },
    );
  }

  return (
    <>
      <ViewHeader title="Edit Profile" />
      <Card>
        <form className="grid gap-5 md:grid-cols-2" onSubmit={submit}>
          <PictureField profile={profile} file={file} onFile={setFile} />
          <TextField
            label="Full Name"
            name="full_name"
            autoComplete="name"
            value={form.full_name}
            onChange={(event) => setForm({ ...form, full_name: event.target.value })}
          />
          <TextField label="Username" name="username" value={profile.username} readOnly disabled />
          <TextField
            label="Email"
            name="email"
            type="email"
            value={profile.email}
            readOnly
            disabled
            hint="Your e-mail address cannot be changed."
          />
          <TextField
            label="Phone Number"
            name="phone_number"
            type="tel"
            autoComplete="tel"
            value={form.phone_number}
            onChange={(event) => setForm({ ...form, phone_number: event.target.value })}
          />
          <TextArea
            label="Bio"
            name="bio"
            rows={4}
            wrapperClassName="md:col-span-2"
            value={form.bio}
            onChange={(event) => setForm({ ...form, bio: event.target.value })}
          />
          {update.isError && errorDetail(update.error) && (
            <Alert className="md:col-span-2">{errorDetail(update.error)}</Alert>
          )}
          <CancelAndSubmit
            submitLabel="Save Changes"
            busy={update.isPending}
            onCancel={onDone}
            className="md:col-span-2"
          />
        </form>
      </Card>
    </>
  );
}

/** The current picture, or a preview of the chosen file, next to the file input. */
function PictureField({
  profile,
  file,
  onFile,
}: {
  profile: TUserProfile;
  file: File | null;
  onFile: (file: File | null) => void;
}) {
  const [preview, setPreview] = useState<string | null>(null);

  // The preview URL lives as long as its file is chosen, then is released.
  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return (
    <div className="flex items-center gap-4 md:col-span-2">
      {preview ? (
        <img
          src={preview}
          alt="New profile picture preview"
          className="h-20 w-20 shrink-0 rounded-full object-cover ring-4 ring-indigo-100 dark:ring-indigo-950"
        />
      ) : (
        <Avatar profile={profile} />
      )}
      <TextField
        label="Profile Picture"
        type="file"
        name="file"
        accept={PROFILE_PICTURE_TYPES.join(',')}
        hint="PNG, JPEG, WebP or GIF, up to 5 MB."
        wrapperClassName="flex-1"
        onChange={(event) => onFile(event.target.files?.[0] ?? null)}
      />
    </div>
  );
}
